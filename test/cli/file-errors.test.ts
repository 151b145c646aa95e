/**
 * Issue 28, item 6: a file a person names that is missing or not JSON is named, with what to do, and
 * JSON errors with file:line:column; never Node's `ENOENT: no such file or directory, stat '...'`.
 * Real CLI commands, in process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { registerDebateCommand } from '../../cli/debate.js';
import { registerDialogicCommand } from '../../cli/dialogic.js';
import { registerReportCommand } from '../../cli/report.js';
import { registerSweepCommand } from '../../cli/sweep.js';
import { runCli } from './cli-capture.js';

const work = await mkdtemp(join(tmpdir(), 'parley-file-errors-'));
afterAll(() => rm(work, { recursive: true, force: true }));
const missing = (path: string) => `${path} does not exist (looked in ${process.cwd()}): check the name, or give the file's full path`;

describe('file errors from the command line', () => {
  it('a missing file is named, with what to do, in report, debate analyze, dialogic analyze and sweep --prices', async () => {
    const runs = [
      [registerReportCommand, ['report', 'nonexist.json'], 'report'],
      [registerDebateCommand, ['debate', 'analyze', 'nonexist.json'], 'debate'],
      [registerDialogicCommand, ['dialogic', 'analyze', 'nonexist.json'], 'dialogic'],
    ] as const;
    for (const [register, args, command] of runs) {
      const ran = await runCli(register, [...args]);
      expect(ran.exitCode).toBe(1);
      expect(ran.stderr).toBe(`parley ${command}: ${missing('nonexist.json')}\n`);
    }
    const sweepFile = join(work, 'sweep.yaml');
    await writeFile(sweepFile, 'protocol: debate\nbase: { question: q, agents: [openai:gpt-4.1, openai:gpt-4.1-mini] }\n');
    const prices = await runCli(registerSweepCommand, ['sweep', sweepFile, '--out', join(work, 'out'), '--prices', 'prices.yaml']);
    expect(prices.stderr).toBe(`parley sweep: ${missing('prices.yaml')}\n`);
  });

  it('a file that is not JSON is named with its line and column', async () => {
    const file = join(work, 'run.json');
    await writeFile(file, '{\n  "kind": "parley.debate",\n  "rounds": [1, 2,]\n}\n');
    const report = await runCli(registerReportCommand, ['report', file]);
    expect(report.stderr).toBe(`parley report: run.json is not valid JSON at ${file}:3:19: expected a value after ',' (JSON allows no trailing comma)\n`);
    const analyze = await runCli(registerDebateCommand, ['debate', 'analyze', file]);
    expect(analyze.stderr).toBe(`parley debate: ${file} is not valid JSON at ${file}:3:19: expected a value after ',' (JSON allows no trailing comma)\n`);
  });
});
