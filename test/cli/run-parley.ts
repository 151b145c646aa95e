import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

/** The parley CLI from its sources, as a child process: what a person at a shell runs. */
const repo = resolve(import.meta.dirname, '../..');
export const PARLEY_ARGS = ['--import', join(repo, 'node_modules/tsx/dist/loader.mjs'), join(repo, 'cli/main.ts')];

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input?: string;
  /** Killed (SIGKILL) after this long, so a hang fails the test instead of stalling it. */
  timeoutMs?: number;
}

export function runProcess(file: string, args: string[], { cwd, env = process.env, input = '', timeoutMs = 60_000 }: RunOptions): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => (clearTimeout(timer), done({ code, stdout, stderr })));
    child.stdin.end(input);
  });
}

export const runParley = (args: string[], options: RunOptions): Promise<Ran> => runProcess(process.execPath, [...PARLEY_ARGS, ...args], options);
