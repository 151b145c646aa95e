/**
 * Codex runs under a small Node watchdog (`node -e WATCHDOG -- <codex> <args>`) that parley talks to
 * over an IPC channel. When parley dies, even by SIGKILL, the channel closes and the watchdog ends
 * codex and every process below it (sandboxed commands run in sessions of their own), then itself.
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
let orphaned = false;
const child = spawn(file, args, { stdio: 'inherit' });
// parley signals the whole process group: codex gets it directly, the watchdog waits for codex's exit.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
child.on('error', (error) => {
  process.stderr.write('parley watchdog: cannot start codex: ' + (error.code || 'error') + ' ' + error.message + '\n');
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (orphaned) return;
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});

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
  const found = new Set();
  const frontier = [...roots];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [pid, ppid] of parentOf) if (ppid === parent && !found.has(pid)) (found.add(pid), frontier.push(pid));
  }
  return [...found];
}

function killAll(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}

function parleyGone() {
  if (orphaned) return;
  orphaned = true;
  if (process.platform === 'win32') {
    try {
      execFileSync('taskkill', ['/T', '/F', '/PID', String(child.pid)], { stdio: 'ignore' });
    } catch {}
    process.exit(1);
  }
  let pids = [];
  try {
    pids = [...new Set([...below([process.pid]), ...tagged()])];
  } catch {}
  killAll(pids, 'SIGTERM');
  setTimeout(() => {
    let late = [];
    try {
      late = [...below([process.pid, ...pids]), ...tagged()];
    } catch {}
    killAll([...pids, ...late], 'SIGKILL');
    process.exit(1);
  }, 1000);
}

process.on('disconnect', parleyGone);
if (!process.connected) parleyGone();
`;

/** The watchdog's exit code when it could not start codex (its stderr then names the errno code). */
export const WATCHDOG_SPAWN_FAILED = 127;

/** The command that runs `file args` under the watchdog; spawn it with an IPC channel. */
export function watchdogCommand(file: string, args: string[]): { file: string; args: string[] } {
  return { file: process.execPath, args: ['-e', WATCHDOG_SOURCE, '--', file, ...args] };
}
