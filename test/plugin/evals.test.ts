import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { FRAMINGS } from '../../protocols/argumentation/index.js';
import { grade, parleyCalls } from '../../scripts/skill-evals.js';
import { repoRoot } from './skill-files.js';

const Framing = z.enum(Object.keys(FRAMINGS) as [string, ...string[]]);
const Expectation = z.discriminatedUnion('invoke', [
  z.strictObject({ invoke: z.literal(false) }),
  z.strictObject({
    invoke: z.literal(true),
    protocol: z.enum(['argumentation', 'dialogic', 'debate']),
    mode: z.enum(['standard', 'minimal', 'quick']).optional(),
    framing: Framing.optional(),
    constraintsMention: z.array(z.string().min(1)).optional(),
    materialMention: z.array(z.string().min(1)).optional(),
    constraintsOmit: z.array(z.string().min(1)).optional(),
  }),
]);
const EvalCase = z.strictObject({ id: z.string().regex(/^[a-z0-9-]+$/), request: z.string().min(20), expect: Expectation, why: z.string().min(10) });
export const EvalFile = z.strictObject({ version: z.literal(1), description: z.string(), cases: z.array(EvalCase).min(10) });

async function load(): Promise<z.infer<typeof EvalFile>> {
  return EvalFile.parse(JSON.parse(await readFile(path.join(repoRoot, 'skill/evals/cases.json'), 'utf8')));
}

describe('skill/evals/cases.json', () => {
  it('validates: ids unique, argumentation cases name a framing, others do not', async () => {
    const file = await load();
    expect(new Set(file.cases.map((c) => c.id)).size).toBe(file.cases.length);
    for (const c of file.cases) {
      if (!c.expect.invoke) continue;
      if (c.expect.protocol === 'argumentation') expect(c.expect.framing, c.id).toBeDefined();
      else expect(c.expect.framing ?? c.expect.mode ?? c.expect.materialMention, c.id).toBeUndefined();
    }
  });

  it('never expects what is under review among the constraints (they become unchallengeable user facts)', async () => {
    for (const c of (await load()).cases) {
      if (!c.expect.invoke) continue;
      const omitted = c.expect.constraintsOmit ?? [];
      expect(omitted.filter((needle) => c.expect.invoke && c.expect.constraintsMention?.includes(needle)), c.id).toEqual([]);
    }
    const critique = (await load()).cases.find((c) => c.id === 'retry-design-critique');
    expect(critique?.expect).toMatchObject({ framing: 'critique-design', materialMention: expect.any(Array), constraintsOmit: expect.any(Array) });
  });

  it('covers all ten framings, all three modes, both run protocols and the invocation check', async () => {
    const { cases } = await load();
    const invoked = cases.flatMap((c) => (c.expect.invoke ? [c.expect] : []));
    expect(new Set(invoked.map((e) => e.framing).filter(Boolean))).toEqual(new Set(Object.keys(FRAMINGS)));
    expect(new Set(invoked.map((e) => e.mode).filter(Boolean))).toEqual(new Set(['standard', 'minimal', 'quick']));
    expect(new Set(invoked.map((e) => e.protocol))).toEqual(new Set(['argumentation', 'dialogic', 'debate']));
    expect(cases.filter((c) => !c.expect.invoke).length).toBeGreaterThanOrEqual(3);
  });

  it('rejects a malformed case', () => {
    const bad = { version: 1, description: 'x', cases: Array.from({ length: 10 }, (_, i) => ({ id: `c${i}`, request: 'a request long enough here', expect: { invoke: true, protocol: 'argumentation', framing: 'steelman' }, why: 'because of a reason' })) };
    expect(EvalFile.safeParse(bad).success).toBe(false);
  });
});

describe('the eval runner grading (scripts/skill-evals.ts)', () => {
  const transcript = [
    JSON.stringify({ type: 'system', subtype: 'init' }),
    JSON.stringify({ type: 'assistant', message: { content: [{ type: 'tool_use', name: 'Skill', input: { skill: 'parley:parley' } }] } }),
    JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'Starting.' }, { type: 'tool_use', name: 'mcp__plugin_parley_parley__delib_start', input: { question: 'q', mode: 'quick', framing: 'compare', constraints: ['no Kafka'] } }] } }),
    'not json',
  ].join('\n');

  it('reads parley calls from a stream-json transcript', () => {
    expect(parleyCalls(transcript)).toEqual([{ name: 'delib_start', input: { question: 'q', mode: 'quick', framing: 'compare', constraints: ['no Kafka'] } }]);
  });

  it('passes a matching case and names each mismatch otherwise', () => {
    const calls = parleyCalls(transcript);
    expect(grade({ invoke: true, protocol: 'argumentation', mode: 'quick', framing: 'compare', constraintsMention: ['Kafka'] }, calls)).toEqual([]);
    expect(grade({ invoke: true, protocol: 'argumentation', mode: 'standard', framing: 'red-team', constraintsMention: ['budget'] }, calls)).toEqual([
      'mode quick, expected standard',
      'framing compare, expected red-team',
      'constraints lack "budget"',
    ]);
    expect(grade({ invoke: false }, calls)).toEqual(['expected no deliberation, got delib_start']);
    expect(grade({ invoke: true, protocol: 'debate' }, calls)).toEqual(['expected run_start, got delib_start']);
    expect(grade({ invoke: false }, [])).toEqual([]);
  });

  it('grades material against constraints, and a start without mode or framing by the server defaults', () => {
    const design = { question: 'Tear my retry design apart', framing: 'critique-design', material: 'Fixed 30 s delay, 5 attempts, then dead-letter.', constraints: ['ships to 400 tenants'] };
    const calls = [{ name: 'delib_start', input: design }];
    expect(grade({ invoke: true, protocol: 'argumentation', mode: 'minimal', materialMention: ['30 S', 'dead-letter'], constraintsOmit: ['30'] }, calls)).toEqual([]);
    const asFact = [{ name: 'delib_start', input: { ...design, material: undefined, constraints: ['fixed 30 s delay, 5 attempts'] } }];
    expect(grade({ invoke: true, protocol: 'argumentation', mode: 'standard', framing: 'consultee-proposes', materialMention: ['30'], constraintsOmit: ['30'] }, asFact)).toEqual([
      'mode minimal, expected standard',
      'framing critique-design, expected consultee-proposes',
      'material lacks "30"',
      'constraints hold "30", which is under review (material)',
    ]);
    expect(grade({ invoke: true, protocol: 'argumentation', framing: 'consultee-proposes' }, [{ name: 'delib_start', input: { question: 'q' } }])).toEqual([]);
  });
});
