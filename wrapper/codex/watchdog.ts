/** How long codex has to exit after SIGTERM before the watchdog SIGKILLs it and its commands. */
export const WATCHDOG_GRACE_MS = 2_000;
/** How often the watchdog notes what runs below codex (Linux): a walk of its own subtree, not of every process. */
export const WATCHDOG_TRACK_MS = 500;

/**
 * Codex runs under a small Node watchdog (`node -e WATCHDOG -- <codex> <args>`) that parley talks to
 * over an IPC channel, and the watchdog alone ends codex early: when the channel closes (parley
 * cancels a call by closing it, and it closes by itself whenever parley exits, even by SIGKILL) or
 * when the watchdog is sent SIGTERM, SIGINT or SIGHUP. It first lists codex and every process below it
 * (sandboxed commands run in sessions of their own, so no process group holds them all) while codex
 * still holds them, signals them SIGTERM, and once codex has exited (or after a grace period) SIGKILLs
 * them and whatever they started meanwhile. parley never signals the watchdog's group on exit: a
 * killed watchdog could no longer find the commands codex left behind.
 * Whichever way codex ends, by itself too, nothing it started outlives the call: Codex's sandbox
 * helpers (`bwrap ... --codex-run-as-fs-helper`) run in sessions of their own with an empty
 * environment and ignore SIGTERM, and one whose parent ended with codex has nothing left that leads
 * to it. So while codex runs the watchdog notes every process below it (pid and start time), and at
 * the end it takes those still running, its own session (which codex and its helpers' parents keep),
 * the call tag (Linux) and all below them, stops them all before it kills any (a process that dies
 * first could leave a child no one has listed), then SIGKILLs them.
 * It is inline source, not a module, so it runs the same from the sources, dist/ and the bundle.
 *
 * Portable: the channel and the process table (ps -A on macOS and the BSDs, /proc on Linux,
 * taskkill /T on Windows). Linux only: the notes, the session and the call tag.
 */
export const WATCHDOG_SOURCE = String.raw`
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const [file, ...args] = process.argv.slice(1);
const tag = process.env.PARLEY_CODEX_CALL;
const GRACE_MS = ${WATCHDOG_GRACE_MS};
const linux = process.platform === 'linux';
let ending = false;
let finished = false;
let exited;
// What end() signalled: ended in finish() too (where no start time tells a process apart, by pid alone).
let found = [];
// pid -> start time of every process seen below the watchdog (Linux).
const seen = new Map();
const child = spawn(file, args, { stdio: 'inherit' });
child.on('error', (error) => {
  process.stderr.write('parley watchdog: cannot start codex: ' + (error.code || 'error') + ' ' + error.message + '\n');
  process.exit(127);
});
const tracker = linux ? setInterval(track, ${WATCHDOG_TRACK_MS}) : undefined;
child.on('exit', (code, signal) => {
  exited = { code, signal };
  clearInterval(tracker);
  if (ending && !finished) return finish();
  // Codex ended by itself: what it left (a slow .bashrc's children, a sandbox helper its exit orphaned) ends too.
  if (!ending) {
    try {
      reap();
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

function stat(pid) {
  try {
    const text = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), sid: Number(fields[3]), start: fields[19] };
  } catch {
    return undefined;
  }
}

// The watchdog leads the session codex runs in (parley spawns it detached); were it not, the session would be parley's.
const leader = linux && stat(process.pid)?.sid === process.pid;

// Linux: the children of every thread of pid; undefined where the kernel does not list them.
function childrenOf(pid) {
  try {
    const found = [];
    for (const thread of fs.readdirSync('/proc/' + pid + '/task')) {
      for (const entry of fs.readFileSync('/proc/' + pid + '/task/' + thread + '/children', 'latin1').split(' ')) if (entry) found.push(Number(entry));
    }
    return found;
  } catch {
    return undefined;
  }
}

function track() {
  const frontier = [process.pid];
  const walked = new Set(frontier);
  while (frontier.length > 0) {
    const children = childrenOf(frontier.pop());
    if (!children && walked.size === 1) return clearInterval(tracker);
    for (const pid of children || []) {
      if (walked.has(pid)) continue;
      walked.add(pid);
      frontier.push(pid);
      if (!seen.has(pid)) note(pid);
    }
  }
}

function note(pid) {
  const info = stat(pid);
  if (info) seen.set(pid, info.start);
}

// Every process: pid -> { ppid, sid, start, tagged }.
function table() {
  const all = new Map();
  if (linux) {
    const needle = tag ? 'PARLEY_CODEX_CALL=' + tag + '\u0000' : undefined;
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const info = stat(entry);
      if (!info) continue;
      let tagged = false;
      if (needle && Number(entry) !== process.pid) {
        try {
          tagged = fs.readFileSync('/proc/' + entry + '/environ', 'latin1').includes(needle);
        } catch {}
      }
      all.set(Number(entry), { ...info, tagged });
    }
    return all;
  }
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=', '-o', 'ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid > 0) all.set(pid, { ppid, sid: 0, start: '', tagged: false });
  }
  return all;
}

// What codex started: below the watchdog, in its session, carrying the call tag, seen below it earlier
// (the same process: the same start time) or listed, and everything below those.
function ours(listed) {
  const all = table();
  const childrenOf = new Map();
  const roots = [process.pid, ...listed, ...(linux ? [] : found)];
  for (const [pid, info] of all) {
    childrenOf.set(info.ppid, [...(childrenOf.get(info.ppid) || []), pid]);
    if (pid === process.pid) continue;
    if ((leader && info.sid === process.pid) || info.tagged || (seen.has(pid) && seen.get(pid) === info.start)) roots.push(pid);
  }
  const found = new Set();
  const frontier = [...roots];
  while (frontier.length > 0) {
    const pid = frontier.pop();
    if (pid !== process.pid && all.has(pid)) found.add(pid);
    for (const below of childrenOf.get(pid) || []) if (!found.has(below) && below !== process.pid) frontier.push(below);
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

// Stopped first, all of them, then killed: no process dies while one it started is still unlisted.
function reap() {
  if (process.platform === 'win32') return;
  const listed = new Set();
  for (let round = 0; round < 20; round++) {
    const fresh = ours(listed).filter((pid) => !listed.has(pid));
    if (fresh.length === 0) break;
    killAll(fresh, 'SIGSTOP');
    for (const pid of fresh) listed.add(pid);
  }
  killAll([...listed], 'SIGKILL');
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
  found = [child.pid];
  try {
    found = ours([]);
    for (const pid of found) if (linux && !seen.has(pid)) note(pid);
  } catch {}
  killAll(found, 'SIGTERM');
}

function finish() {
  if (finished) return;
  finished = true;
  clearInterval(tracker);
  if (process.platform === 'win32') {
    if (!exited) child.kill();
  } else {
    try {
      reap();
    } catch {
      killAll([child.pid], 'SIGKILL');
    }
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
