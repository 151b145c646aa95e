/** scripts/real-minds/relay-responses.ts run as the program it is (node + tsx), for tests; helpers to watch what it writes. */
import { existsSync, watch } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const repoRoot = resolve(import.meta.dirname, '../..');

/** scripts/real-minds/relay-responses.ts on `dir`, once it wrote env.json; stop() sends SIGTERM. */
export async function startRelayResponses(dir: string): Promise<{ output(): string; stop(): Promise<void> }> {
  const child = execa('node', ['--import', 'tsx', 'scripts/real-minds/relay-responses.ts', '--dir', dir], { cwd: repoRoot, all: true, buffer: false, reject: false });
  let output = '';
  child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  void child.then(() => (exited = true));
  while (!existsSync(join(dir, 'env.json'))) {
    if (exited) throw new Error(`relay-responses exited before listening:\n${output}`);
    await new Promise((ready) => setTimeout(ready, 50));
  }
  return {
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}

/** Waits until `check` holds (the test's own timeout bounds the wait). */
export async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((ready) => setTimeout(ready, 25));
}

/**
 * What happens to the files of a folder, as a mind watching it would see it: a file renamed into
 * place shows up once, as a 'rename'; a file written in place also shows 'change' events, and a
 * reader can catch it empty or half written.
 */
export function watchFolder(dir: string): { events: [string, string][]; close(): void } {
  const events: [string, string][] = [];
  const watcher = watch(dir, (type, name) => events.push([type, String(name)]));
  return { events, close: () => watcher.close() };
}
