import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const workerPath = fileURLToPath(new URL('./fixtures/store-worker.ts', import.meta.url));

/**
 * Bundles the worker (the real store code) into one plain .mjs file, so each child starts as a bare
 * `node` process: tsx's start-up would dominate the crash loop.
 */
export async function bundleWorker(outDir: string): Promise<string> {
  const outfile = join(outDir, 'store-worker.mjs');
  await build({ entryPoints: [workerPath], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent' });
  return outfile;
}

/** Starts the bundled store worker as a real child process. */
export function spawnWorker(bundle: string, args: string[]): ChildProcess & { stdoutText: () => string; stderrText: () => string } {
  const child = spawn(process.execPath, [bundle, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return Object.assign(child, { stdoutText: () => stdout, stderrText: () => stderr });
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Resolves once the child's stdout holds at least `lines` lines. */
export function linesSeen(child: ChildProcess & { stdoutText: () => string }, lines: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (child.stdoutText().split('\n').length - 1 >= lines) {
        child.stdout?.off('data', check);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', () => reject(new Error(`worker exited before printing ${lines} lines`)));
    check();
  });
}
