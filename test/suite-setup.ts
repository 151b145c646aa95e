/**
 * The suite run's own temporary folder, and the check at its end that the run left nothing running.
 * Every test file gets the folder as TMPDIR, so each CODEX_HOME, state and work folder of the run lies
 * in it; a process of the run names it in its environment (TMPDIR, CODEX_HOME) or, like Codex's
 * sandbox helpers, which run with an empty environment, in its command line. What is still running
 * after a short grace fails the run (exit code 1), is listed, and is killed. Linux (/proc) only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GRACE_MS = 10_000;

export default function setup(): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'parley-run-'));
  process.env.TMPDIR = folder;
  return async () => {
    const deadline = Date.now() + GRACE_MS;
    while (processesOfRun(folder).length > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    const left = processesOfRun(folder);
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    rmSync(folder, { recursive: true, force: true });
    if (left.length === 0) return;
    console.error(`The test run left ${left.length} process(es) running (killed now):\n${left.map(({ pid, command }) => `  ${pid} ${command}`).join('\n')}`);
    process.exitCode = 1;
  };
}

/** Live processes, zombies aside, whose environment or command line names the run's folder. */
function processesOfRun(folder: string): { pid: number; command: string }[] {
  const read = (pid: string, name: string): string => {
    try {
      return readFileSync(`/proc/${pid}/${name}`, 'latin1');
    } catch {
      return '';
    }
  };
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid);
  } catch {
    return [];
  }
  return entries
    .filter((pid) => {
      const stat = read(pid, 'stat');
      if (!stat || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
      return read(pid, 'environ').includes(folder) || read(pid, 'cmdline').includes(folder);
    })
    .map((pid) => ({ pid: Number(pid), command: read(pid, 'cmdline').split('\u0000').join(' ').trim().slice(0, 240) }));
}
