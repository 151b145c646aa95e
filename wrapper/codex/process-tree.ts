import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every process below `root` (children, grandchildren...), read from /proc. Codex runs tool commands
 * in a sandbox with their own session, so killing Codex's process group can miss them; a snapshot
 * taken before the kill lets parley finish them too. Empty where there is no /proc.
 */
export function descendantsOf(...roots: number[]): number[] {
  const parentOf = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
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
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(needle)) found.push(Number(entry));
    } catch {
      // ended meanwhile, or not ours to read
    }
  }
  return found;
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
