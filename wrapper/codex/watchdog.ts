/** How long codex has to exit after SIGTERM before the watchdog SIGKILLs it and its commands. */
export const WATCHDOG_GRACE_MS = 2_000;

/**
 * Codex runs under a small Node watchdog (`node -e WATCHDOG -- <codex> <args>`) that parley talks to
 * over an IPC channel, and the watchdog alone ends codex early: when the channel closes (parley
 * cancels a call by closing it, and it closes by itself whenever parley exits, even by SIGKILL) or
 * when the watchdog is sent SIGTERM, SIGINT or SIGHUP. It first lists codex and every process below it
 * (sandboxed commands run in sessions of their own, so no process group holds them all) while codex
 * still holds them, signals them SIGTERM, and once codex has exited (or after a grace period) SIGKILLs
 * them and whatever they started meanwhile. parley never signals the watchdog's group on exit: a
 * killed watchdog could no longer find the commands codex left behind.
 * It is inline source, not a module, so it runs the same from the sources, dist/ and the bundle.
 *
 * Portable: the channel and the process table (ps -A on macOS and the BSDs, /proc on Linux,
 * taskkill /T on Windows). Linux only: processes re-parented away from codex are also found by the
 * call tag in their environment.
 */
export const WATCHDOG_SOURCE = String.raw`
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const [file, ...args] = process.argv.slice(1);
const tag = process.env.PARLEY_CODEX_CALL;
const GRACE_MS = ${WATCHDOG_GRACE_MS};
let ending = false;
let finished = false;
let exited;
let found = [];
const child = spawn(file, args, { stdio: 'inherit' });
child.on('error', (error) => {
  process.stderr.write('parley watchdog: cannot start codex: ' + (error.code || 'error') + ' ' + error.message + '\n');
  process.exit(127);
});
child.on('exit', (code, signal) => {
  exited = { code, signal };
  if (ending && !finished) return finish();
  // Codex ends its shell-snapshot login shell on the way out, but not what that shell started (a slow
  // .bashrc's children): with no parent chain left, only the call tag finds them (Linux).
  if (!ending) {
    try {
      killAll(tagged(), 'SIGKILL');
    } catch {}
  }
  leave();
});

// Ends as codex ended, so parley reads codex's own exit.
function leave() {
  const { code, signal } = exited;
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
}

function table() {
  const parentOf = new Map();
  if (process.platform === 'linux') {
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync('/proc/' + entry + '/stat', 'latin1');
        parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {}
    }
    return parentOf;
  }
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid > 0) parentOf.set(pid, ppid);
  }
  return parentOf;
}

function tagged() {
  if (process.platform !== 'linux' || !tag) return [];
  const needle = 'PARLEY_CODEX_CALL=' + tag + '\u0000';
  return fs.readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return false;
    try {
      return fs.readFileSync('/proc/' + entry + '/environ', 'latin1').includes(needle);
    } catch {
      return false;
    }
  }).map(Number);
}

function below(roots) {
  const parentOf = table();
  const seen = new Set();
  const frontier = [...roots];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [pid, ppid] of parentOf) if (ppid === parent && !seen.has(pid)) (seen.add(pid), frontier.push(pid));
  }
  return [...seen];
}

function killAll(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}

function end() {
  if (ending) return;
  ending = true;
  if (exited) return leave();
  setTimeout(finish, GRACE_MS);
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/T', '/F', '/PID', String(child.pid)], { stdio: 'ignore' });
    } catch {}
    return;
  }
  // Listed before anything is signalled: once codex exits, its commands have no parent that leads to them.
  try {
    found = [...new Set([...below([process.pid]), ...tagged()])];
  } catch {
    found = [child.pid];
  }
  killAll(found, 'SIGTERM');
}

function finish() {
  if (finished) return;
  finished = true;
  if (process.platform === 'win32') {
    if (!exited) child.kill();
  } else {
    let late = [];
    try {
      late = [...below([process.pid, ...found]), ...tagged()];
    } catch {}
    killAll([...found, ...late], 'SIGKILL');
  }
  if (exited) leave();
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, end);
process.on('disconnect', end);
if (!process.connected) end();
`;

/** The watchdog's exit code when it could not start codex (its stderr then names the errno code). */
export const WATCHDOG_SPAWN_FAILED = 127;

/** The command that runs `file args` under the watchdog; spawn it with an IPC channel. */
export function watchdogCommand(file: string, args: string[]): { file: string; args: string[] } {
  return { file: process.execPath, args: ['-e', WATCHDOG_SOURCE, '--', file, ...args] };
}
