import { readdirSync, readFileSync } from 'node:fs';
import { pidtree } from 'pidtree';

/** Pids of every process visible in /proc; empty where there is no /proc. */
function procPids(): number[] {
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

/** pid -> parent pid of every process, from /proc: the fallback where `ps` is missing (slim Linux images). */
function procTable(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const pid of procPids()) {
    const stat = procFile(pid, 'stat');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    if (stat) parentOf.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  return parentOf;
}

/** pid -> parent pid of every process: pidtree (ps on macOS, Linux and the BSDs, PowerShell or wmic on Windows). */
async function processTable(): Promise<Map<number, number>> {
  try {
    const all = await pidtree(-1, { advanced: true });
    return new Map(all.map(({ pid, ppid }) => [pid, ppid]));
  } catch {
    return procTable();
  }
}

/**
 * Every process below the roots (children, grandchildren...). Codex runs tool commands in a sandbox
 * with their own session, so killing Codex's process group misses them; a snapshot taken before
 * the kill lets parley finish them too.
 */
export async function descendantsOf(...roots: number[]): Promise<number[]> {
  if (roots.length === 0) return [];
  const childrenOf = new Map<number, number[]>();
  for (const [pid, ppid] of await processTable()) childrenOf.set(ppid, [...(childrenOf.get(ppid) ?? []), pid]);
  const found = new Set<number>();
  const frontier = [...roots];
  while (frontier.length > 0) {
    for (const pid of childrenOf.get(frontier.pop()!) ?? []) {
      if (found.has(pid) || roots.includes(pid)) continue;
      found.add(pid);
      frontier.push(pid);
    }
  }
  return [...found];
}

/**
 * Processes whose environment carries `name=value`. On Linux Codex's sandbox re-parents a command
 * away from codex, so no parent chain leads to it; the environment it inherited still does. Linux
 * only (/proc): elsewhere it finds nothing, and the descendants snapshot is what finds commands.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const needle = `${name}=${value}\u0000`;
  return procPids().filter((pid) => pid !== process.pid && procFile(pid, 'environ')?.includes(needle));
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
