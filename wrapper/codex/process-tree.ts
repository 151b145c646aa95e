import { readdirSync, readFileSync } from 'node:fs';

/** Pids of every process visible in /proc; empty where there is no /proc. */
function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/** A /proc file of a process, or undefined when it ended meanwhile or is not ours to read. */
function procFile(pid: number, name: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'latin1');
  } catch {
    return undefined;
  }
}

/**
 * Every process below the roots (children, grandchildren...), read from /proc. Codex runs tool
 * commands in a sandbox with their own session, so killing Codex's process group can miss them; a
 * snapshot taken before the kill lets parley finish them too.
 */
export function descendantsOf(...roots: number[]): number[] {
  const parentOf = new Map<number, number>();
  for (const pid of allPids()) {
    const stat = procFile(pid, 'stat');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    if (stat) parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const found: number[] = [];
  const frontier = [...roots];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent && !found.includes(pid) && !roots.includes(pid)) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

/**
 * Processes whose environment carries `name=value`. Codex's sandbox re-parents the command to init
 * (the launcher exits), so no parent chain leads to it; the environment it inherited still does.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}\u0000`;
  return allPids().filter((pid) => pid !== process.pid && procFile(pid, 'environ')?.includes(needle));
}

export function killAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
