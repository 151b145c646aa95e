import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readChecked, Verdict } from '../../../scripts/ab/verdict.js';
import { HAND_MADE, runScript } from './ab-process.js';

const dir = mkdtempSync(join(tmpdir(), 'ab-verdict-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const good = JSON.parse(readFileSync(join(HAND_MADE, 'a-parley-clearly/judge/verdict.json'), 'utf8'));

/** The error readChecked throws for this verdict, written to a file of its own. */
function problems(verdict: unknown, name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, typeof verdict === 'string' ? verdict : JSON.stringify(verdict));
  try {
    readChecked(file, Verdict, 'verdict');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

describe('the verdict schema', () => {
  it('accepts a whole verdict, and a tie without a strength', () => {
    expect(problems(good, 'good')).toBe('accepted');
    const { strength: _strength, ...tie } = { ...good, preferred: 'tie' };
    expect(problems(tie, 'tie')).toBe('accepted');
  });

  it.each([
    ['a score out of range', { ...good, X: { ...good.X, correctness: { score: 7, reason: 'great' } } }, 'X.correctness.score: a whole number from 1 to 5'],
    ['a score that is not whole', { ...good, Y: { ...good.Y, concision: { score: 3.5, reason: 'ok' } } }, 'Y.concision.score: a whole number from 1 to 5'],
    ['a reason over two lines', { ...good, X: { ...good.X, decision: { score: 3, reason: 'first\nsecond' } } }, 'X.decision.reason: keep the reason to one line'],
    ['an empty reason', { ...good, X: { ...good.X, calibration: { score: 3, reason: ' ' } } }, 'X.calibration.reason: give a reason: one line'],
    ['a missing score', { ...good, Y: { ...good.Y, actionability: undefined } }, 'Y.actionability: Invalid input'],
    ['reversalVisible as text', { ...good, X: { ...good.X, reversalVisible: 'yes' } }, 'X.reversalVisible: true or false'],
    ['an arm name for preferred', { ...good, preferred: 'parley' }, 'preferred: one of "X", "Y", "tie"'],
    ['no strength for a preference', { ...good, strength: undefined }, 'strength: strength is required when preferred is "X" or "Y"'],
    ['an unknown strength', { ...good, strength: 'very' }, 'strength: one of "slightly", "clearly", "strongly"'],
    ['a field the schema lacks', { ...good, winner: 'X' }, 'Unrecognized key: "winner"'],
  ])('says where and what for %s', (_what, verdict, expected) => {
    const message = problems(verdict, _what.replace(/\W+/g, '-'));
    expect(message).toContain('does not match the verdict schema');
    expect(message).toContain(expected);
  });

  it('says when the file is not JSON, or missing', () => {
    expect(problems('{"X": ', 'broken')).toMatch(/broken\.json is not JSON: /);
    expect(() => readChecked(join(dir, 'none.json'), Verdict, 'verdict')).toThrow(`${join(dir, 'none.json')} is missing`);
  });

  it('check-verdict.ts prints ok, or every problem and exits 2', { timeout: 60_000 }, async () => {
    const ok = await runScript('ab/check-verdict.ts', ['--file', join(HAND_MADE, 'a-parley-clearly/judge/verdict.json')]);
    expect([ok.exitCode, ok.stdout]).toEqual([0, 'ok']);
    writeFileSync(join(dir, 'two.json'), JSON.stringify({ ...good, preferred: 'Z', X: { ...good.X, concision: { score: 0, reason: 'x' } } }));
    const bad = await runScript('ab/check-verdict.ts', ['--file', join(dir, 'two.json')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('X.concision.score: a whole number from 1 to 5');
    expect(bad.stderr).toContain('preferred: one of "X", "Y", "tie"');
  });
});
