import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAND_MADE, runNpm, runScript } from './ab-process.js';

const PAIRS = join(import.meta.dirname, '../../ab/pairs');

/** Over test/ab/hand-made: a hand-made fixture (its README says what each pair exercises), not a real run. */
describe('ab:summary and ab:costs over the hand-made pairs', { timeout: 60_000 }, () => {
  const copies: string[] = [];
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('npm run -s ab:summary: exactly the four lines, what it found on stderr', async () => {
    const { exitCode, stdout, stderr } = await runNpm('ab:summary', ['--root', HAND_MADE]);
    expect(exitCode, stderr).toBe(0);
    expect(stdout).toBe(
      [
        'ab.pairs                 3',
        'ab.parleyPreferredOrTied 1',
        'ab.parleyStronglyWorse   1',
        'ab.answersWithIds        2   (final parley answers holding a point id, a file path or a cut-off line)',
      ].join('\n'),
    );
    expect(stderr).toContain('b-split-judges: the parley answer holds point id "P1.2", file path "/tmp/parley-codex-Ab12Cd/work/check.js"');
    expect(stderr).toContain('c-plain-slightly: the parley answer holds cut-off line');
    expect(stderr).toContain('d-not-judged: not judged yet, left out');
  });

  it('summary: two judges who lean opposite ways as strongly make a tie; one leaning less far does not', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ab-summary-'));
    copies.push(root);
    cpSync(HAND_MADE, root, { recursive: true });
    // b-split-judges: the second judge prefers plain strongly; the first (parley is Y) now leans to parley.
    const first = join(root, 'b-split-judges/judge/verdict.json');
    const lean = (strength: string) => writeFileSync(first, JSON.stringify({ ...JSON.parse(readFileSync(join(HAND_MADE, 'b-split-judges/judge/verdict.json'), 'utf8')), preferred: 'Y', strength }));
    lean('strongly');
    const tied = await runScript('ab/summary.ts', ['--root', root]);
    expect(tied.stdout).toContain('ab.parleyPreferredOrTied 2\nab.parleyStronglyWorse   1');
    expect(tied.stderr).toContain('b-split-judges: parley strongly, plain strongly');
    lean('clearly');
    expect((await runScript('ab/summary.ts', ['--root', root])).stdout).toContain('ab.parleyPreferredOrTied 1\n');
  });

  it("summary: per pair, Codex's reversals in the record beside how many judges saw one in the answer (two real kept pairs)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'ab-summary-'));
    copies.push(root);
    for (const name of ['2026-11-28-alb-keepalive', '2026-11-28-api-rate-limit-rerun']) cpSync(join(PAIRS, name), join(root, name), { recursive: true });
    const { exitCode, stderr } = await runScript('ab/summary.ts', ['--root', root]);
    expect(exitCode, stderr).toBe(0);
    expect(stderr).toContain('2026-11-28-alb-keepalive: Codex replaced, narrowed or gave up 1 claim on an objection; judges saw it change its position in 2 of 2');
    expect(stderr).toContain('2026-11-28-api-rate-limit-rerun: Codex replaced, narrowed or gave up 2 claims on an objection; judges saw it change its position in 0 of 2');
    expect(stderr).toContain('reversals: Codex replaced, narrowed or gave up a claim in 2 of the 2 pairs that kept the record; every judge saw it in 1 of them');
    // The hand-made pairs kept no record: said so, not counted as pairs without a reversal.
    expect((await runScript('ab/summary.ts', ['--root', HAND_MADE])).stderr).toContain('a-parley-clearly: no record kept; judges saw Codex change its position in 1 of 1');
  });

  it('summary: a verdict that does not fit stops it with the file and the problem, and nothing on stdout', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ab-summary-'));
    copies.push(root);
    cpSync(HAND_MADE, root, { recursive: true });
    writeFileSync(join(root, 'a-parley-clearly/judge/verdict.json'), JSON.stringify({ preferred: 'X', strength: 'clearly' }));
    const { exitCode, stdout, stderr } = await runScript('ab/summary.ts', ['--root', root]);
    expect(exitCode).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`${join(root, 'a-parley-clearly/judge/verdict.json')} does not match the verdict schema`);
    expect(stderr).toContain('X: Invalid input: expected object, received undefined');
  });

  it('npm run -s ab:costs: per pair, parley beside plain', async () => {
    const { exitCode, stdout, stderr } = await runNpm('ab:costs', ['--root', HAND_MADE]);
    expect(exitCode, stderr).toBe(0);
    const pair = (name: string, parley: string, plain: string) => [name, '  arm       calls  refusals  codex turns  result bytes  wall time', parley, plain];
    const full = '  parley        3         1            2          5750   12.5 min';
    expect(stdout.split('\n')).toEqual([
      ...pair('a-parley-clearly', full, '  plain         1         0            1          2100    3.0 min'),
      ...pair('b-split-judges', full, '  plain         1         0            1          2100    3.0 min'),
      ...pair('c-plain-slightly', full, '  plain         1         0            1          2100          -'),
      ...pair('d-not-judged', '  parley        1         0            1          3100          -', '  plain         1         0            1          2100    3.0 min'),
    ]);
  });

  it('both read test/ab/pairs by default, where only real runs are kept', async () => {
    const { exitCode, stdout } = await runScript('ab/summary.ts', []);
    expect(exitCode).toBe(0);
    expect(stdout.split('\n')).toHaveLength(4);
    expect(stdout).toMatch(/^ab\.pairs {17}\d+\n/);
  });
});
