/** The A/B scripts run as the programs they are (node + tsx, from the repository root), for tests. */
import { resolve } from 'node:path';
import { execa } from 'execa';

export const repoRoot = resolve(import.meta.dirname, '../../..');
export const HAND_MADE = resolve(repoRoot, 'test/ab/hand-made');

export async function runScript(script: string, args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const result = await execa('node', ['--import', 'tsx', `scripts/${script}`, ...args], { cwd: repoRoot, reject: false });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

/** `npm run -s <script> -- <args>`, as the README says to run it. */
export async function runNpm(script: string, args: string[]): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const result = await execa('npm', ['run', '-s', script, '--', ...args], { cwd: repoRoot, reject: false });
  return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}

