import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';

const VITEST = resolve('node_modules/vitest/vitest.mjs');
const SETUP = resolve('test/suite-setup.ts');
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const running = (text: string): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes(text) && !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
      } catch {
        return false;
      }
    })
    .map(Number);

/** A run of vitest with the suite's global setup over one test file. */
async function runSuite(testSource: string) {
  const root = await mkdtemp(join(tmpdir(), 'parley-suite-check-'));
  folders.push(root);
  await writeFile(join(root, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], globals: true, pool: 'forks', globalSetup: [${JSON.stringify(SETUP)}] } };\n`);
  await writeFile(join(root, 'left.test.mjs'), testSource);
  return execa(process.execPath, [VITEST, 'run', '--root', root, '--config', join(root, 'vitest.config.mjs')], { reject: false, cwd: root, timeout: 120_000, all: true });
}

describe("the suite's end", () => {
  it('fails the run, names and kills a process a test left running (a sandbox helper with an empty environment too)', { timeout: 150_000 }, async () => {
    const marker = `300.${process.pid}7`;
    const run = await runSuite(
      [
        "import { spawn } from 'node:child_process';",
        "import { tmpdir } from 'node:os';",
        // One found by its environment (TMPDIR), one by its command line alone.
        `test('leaves two processes', () => { spawn('sleep', ['${marker}'], { detached: true, stdio: 'ignore' }).unref(); spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)', 'sleep ${marker}', tmpdir()], { detached: true, stdio: 'ignore', env: {} }).unref(); });`,
      ].join('\n'),
    );
    expect(run.exitCode, run.all).toBe(1);
    expect(run.all).toMatch(/The test run left 2 process\(es\) running \(killed now\):/);
    expect(run.all).toContain(`sleep ${marker}`);
    expect(running(`sleep ${marker}`)).toEqual([]);
  });

  it('passes a run that leaves nothing', { timeout: 150_000 }, async () => {
    const run = await runSuite("test('leaves nothing', () => { expect(1).toBe(1); });\n");
    expect(run.exitCode, run.all).toBe(0);
  });
});
