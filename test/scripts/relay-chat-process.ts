/** scripts/real-minds/relay-chat.ts run as the program it is (node + tsx), for tests; `until` waits for what it writes. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const root = resolve(import.meta.dirname, '../..');

export interface RelayChat {
  baseUrl: string;
  /** Everything the relay printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export async function startRelayChat(dir: string, extra: string[] = []): Promise<RelayChat> {
  const urlFile = join(dir, 'base-url');
  rmSync(urlFile, { force: true }); // an earlier relay's URL is not this one's
  const child = execa('node', ['--import', 'tsx', 'scripts/real-minds/relay-chat.ts', '--dir', dir, ...extra], { cwd: root, all: true, buffer: false, reject: false });
  let output = '';
  child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  void child.then(() => (exited = true));
  while (!(existsSync(urlFile) && readFileSync(urlFile, 'utf8').endsWith('\n'))) {
    if (exited) throw new Error(`relay-chat exited before listening:\n${output}`);
    await new Promise((ready) => setTimeout(ready, 50));
  }
  return {
    baseUrl: readFileSync(urlFile, 'utf8').trim(),
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

/** scripts/real-minds/run-chat.ts as the program it is: a run through the relay in `dir`, then the debrief. */
export async function runChat(dir: string, protocol: 'debate' | 'dialogic', config: string): Promise<string> {
  const result = await execa('node', ['--import', 'tsx', 'scripts/real-minds/run-chat.ts', '--dir', dir, '--protocol', protocol, '--config', config], { cwd: root, all: true, reject: false });
  if (result.exitCode !== 0) throw new Error(`run-chat failed (${result.exitCode}):\n${result.all}`);
  return result.all ?? '';
}

/** The trial configs scripts/real-minds/README.md runs real minds with. */
export const TRIAL_CONFIGS = { debate: join(root, 'scripts/real-minds/debate.json'), dialogic: join(root, 'scripts/real-minds/dialogic.json') };
