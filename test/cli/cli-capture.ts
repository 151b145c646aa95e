import { Command } from 'commander';
import { vi } from 'vitest';

export interface CliRun {
  stdout: string;
  stderr: string;
  /** process.exitCode after the command (reset to 0 for the next one). */
  exitCode: number;
}

/** Runs one `parley` subcommand in-process through commander, capturing stdout, stderr and the exit code. */
export async function runCli(register: (program: Command) => void, args: string[]): Promise<CliRun> {
  const program = new Command('parley').exitOverride();
  register(program);
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  const errorLog = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void (stderr += parts.join(' ') + '\n'));
  process.exitCode = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
  } finally {
    out.mockRestore();
    err.mockRestore();
    errorLog.mockRestore();
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { stdout, stderr, exitCode };
}
