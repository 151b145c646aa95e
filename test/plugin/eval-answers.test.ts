import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grade } from '../../scripts/skill-evals.js';

/**
 * First moves a real model chose for every eval request after reading only SKILL.md, skill/*.md and
 * tools/list (skill/evals/real-minds/): graded by the same grader as scripts/skill-evals.ts, so a
 * change to the cases, the grader or the tool surface that a real reader would no longer meet shows.
 */
const evals = resolve(import.meta.dirname, '../../skill/evals');
const cases: { id: string; expect: Parameters<typeof grade>[0] }[] = JSON.parse(readFileSync(join(evals, 'cases.json'), 'utf8')).cases;

describe.each(readdirSync(join(evals, 'real-minds')))('a real reader of the skill (%s)', (file) => {
  const answers: { id: string; invoke: boolean; tool: string | null; input: Record<string, unknown> | null }[] = JSON.parse(readFileSync(join(evals, 'real-minds', file), 'utf8'));
  it('answered every case', () => expect(answers.map((a) => a.id).sort()).toEqual(cases.map((c) => c.id).sort()));
  it.each(cases)('$id', (c) => {
    const answer = answers.find((a) => a.id === c.id)!;
    const calls = answer.invoke && answer.tool ? [{ name: answer.tool, input: answer.input ?? {} }] : [];
    expect(grade(c.expect, calls)).toEqual([]);
  });
});
