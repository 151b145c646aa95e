import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { negotiateTerm, type Ask } from '../../../protocols/dialogic/negotiate.js';
import type { Participant } from '../../../protocols/dialogic/calls.js';
import { loadVocabulary, vocabularyNote } from '../../../protocols/dialogic/vocabulary.js';
import { progressDisplay } from '../../../cli/shared.js';
import { NegotiationEntry } from '../../../schemas/dialogic.js';
import { termText } from './world.js';

// A pure unit of the state machine: the "backend" is a list of scripted decisions.
const unused = { spec: 'none', send: () => Promise.reject(new Error('not called')) };
const proposer: Participant = { slot: 'model_b', backend: unused, system: '' };
const responder: Participant = { slot: 'model_a', backend: unused, system: '' };
const speaker = { anonymise: true, name: 'x', persona: 'husserlian' as const };

type Verdict = 'KEEP' | 'REFINE' | 'DROP';
type Decision = 'accept' | 'counter_revise' | 'concede';

async function negotiate(verdicts: Verdict[], decisions: Decision[], maxExchanges: number) {
  const keys: string[] = [];
  let v = 0;
  let d = 0;
  const ask = (async (request: { key: string }) => {
    keys.push(request.key);
    if (request.key.endsWith('/respond')) {
      const verdict = verdicts[v++] ?? 'KEEP';
      return { verdict, reason: `r${v}`, ...(verdict === 'REFINE' && { revision: termText(`rev${v}`) }) };
    }
    const decision = decisions[d++] ?? 'accept';
    return { decision, reason: `p${d}`, ...(decision === 'counter_revise' && { counter_revision: termText(`counter${d}`) }) };
  }) as Ask;
  const result = await negotiateTerm({
    term: { id: 'c1-b1', cycle: 1, proposer: 'model_b', persona: 'heideggerian', text: termText('original') },
    agreed: [],
    proposer,
    responder,
    proposerAsSeen: speaker,
    responderAsSeen: speaker,
    maxExchanges,
    keyPrefix: 'c1/negotiate/b1',
    ask,
    note: async () => undefined,
  });
  return { result, keys };
}

describe('negotiateTerm', () => {
  it('always ends in a consistent, bounded, schema-valid history', async () => {
    const verdict = fc.constantFrom<Verdict>('KEEP', 'REFINE', 'DROP');
    const decision = fc.constantFrom<Decision>('accept', 'counter_revise', 'concede');
    await fc.assert(
      fc.asyncProperty(fc.array(verdict, { maxLength: 6 }), fc.array(decision, { maxLength: 6 }), fc.integer({ min: 1, max: 4 }), async (verdicts, decisions, cap) => {
        const { result, keys } = await negotiate(verdicts, decisions, cap);
        const history = result.history;
        for (const entry of history) NegotiationEntry.parse(entry);
        expect(new Set(keys).size).toBe(keys.length);
        expect(keys.filter((key) => key.endsWith('/respond')).length).toBeLessThanOrEqual(cap);
        const counters = history.filter((h) => h.outcome === 'counter_revised').length;
        expect(counters).toBeLessThanOrEqual(cap);
        const last = history.at(-1);
        if (result.status === 'KEEP') expect(history).toHaveLength(1);
        if (result.status === 'REFINED') expect(last?.outcome).toBe('accepted');
        if (result.status === 'DROPPED') expect(last?.outcome).toBe('dropped');
        // The cap adds no exchange: its drop is the outcome of the last real one.
        expect(history.length).toBe(keys.filter((key) => key.endsWith('/respond')).length);
        if (result.dropKind === 'cap') expect([counters, history.length, last?.action]).toEqual([cap - 1, cap, 'REFINE']);
        for (const h of history) expect(h.proposed_revision === undefined).toBe(h.action !== 'REFINE');
        if (result.status === 'REFINED') expect(result.final.term).not.toBe('original');
        if (result.status === 'KEEP') expect(result.final.term).toBe('original');
        expect(history.every((h) => h.presented_by === 'model_b' && h.response_by === 'model_a')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('emits the revised definition text as proposed_revision (issue 14, item 9)', async () => {
    const { result } = await negotiate(['REFINE'], ['accept'], 3);
    expect(result.history).toEqual([
      {
        cycle: 1,
        presented_by: 'model_b',
        response_by: 'model_a',
        action: 'REFINE',
        proposed_revision: 'The state called rev1. It can be recognised by a test.',
        reason: 'r1',
        outcome: 'accepted',
      },
    ]);
    expect(result.final.term).toBe('rev1');
  });

  it('records a cap drop as the outcome of the last real exchange, with the cap as its reason (item 10)', async () => {
    // Three rounds of REFINE answered by a counter-revision, cap 3: three exchanges, not four.
    const { result, keys } = await negotiate(['REFINE', 'REFINE', 'REFINE'], ['counter_revise', 'counter_revise', 'counter_revise'], 3);
    expect(keys).toHaveLength(6);
    expect(result).toMatchObject({ status: 'DROPPED', dropKind: 'cap', final: { term: 'counter2' } });
    expect(result.history.map((h) => [h.response_by, h.action, h.proposed_revision, h.outcome])).toEqual([
      ['model_a', 'REFINE', 'The state called rev1. It can be recognised by a test.', 'counter_revised'],
      ['model_a', 'REFINE', 'The state called rev2. It can be recognised by a test.', 'counter_revised'],
      ['model_a', 'REFINE', 'The state called rev3. It can be recognised by a test.', 'dropped'],
    ]);
    expect(result.history.map((h) => h.reason)).toEqual([
      'r1',
      'r2',
      "Dropped by the exchange cap: no agreement after 3 exchanges. The revision's reason: r3",
    ]);
  });

  it('keeps the counter-revision when the responder accepts it', async () => {
    const { result } = await negotiate(['REFINE', 'KEEP'], ['counter_revise'], 3);
    expect(result.status).toBe('REFINED');
    expect(result.final.term).toBe('counter1');
  });
});

describe('seed levels and progress display', () => {
  it('shows a few example terms at medium and the whole vocabulary at heavy', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'parley-vocab-')), 'dictionary.json');
    const terms = Array.from({ length: 9 }, (_, i) => ({ name: `Word ${i}`, definition: `Meaning ${i}.`, word_type: 'noun' }));
    await writeFile(path, JSON.stringify({ terms }));
    const loaded = await loadVocabulary(path);
    expect(loaded).toHaveLength(9);
    const medium = vocabularyNote('medium', loaded) ?? '';
    expect(medium).toContain('Word 4: Meaning 4.');
    expect(medium).not.toContain('Word 5');
    const heavy = vocabularyNote('heavy', loaded) ?? '';
    expect(heavy).toContain('Word 8: Meaning 8.');
    expect(vocabularyNote('minimal', loaded)).toBeUndefined();
    await writeFile(path, '{"nothing": []}');
    await expect(loadVocabulary(path)).rejects.toThrow(/no list of terms/);
  });

  it('rewrites one line on a terminal and prints plain lines otherwise', () => {
    const written: string[] = [];
    const fake = (isTTY: boolean) => ({ isTTY, columns: 40, write: (text: string) => written.push(text) }) as unknown as NodeJS.WriteStream;
    const tty = progressDisplay(fake(true));
    tty.update({ done: 1, message: 'cycle 1: negotiating term 1/8 (model_a)' });
    tty.update({ done: 2, message: 'cycle 1: negotiating term 2/8 (model_a)' });
    tty.end();
    expect(written.slice(0, 2).every((text) => text.startsWith('\r\x1b[2K') && !text.includes('\n'))).toBe(true);
    expect(written[2]).toBe('\n');
    written.length = 0;
    const plain = progressDisplay(fake(false));
    plain.update({ done: 3, message: 'regeneration' });
    plain.end();
    expect(written).toEqual(['[3] regeneration\n']);
  });
});

describe('reply schemas', () => {
  /** OpenAI strict structured outputs (codex --output-schema): all required, closed objects, no default or length keywords. */
  function strictProblems(node: unknown, path = '$'): string[] {
    if (!node || typeof node !== 'object') return [];
    const schema = node as Record<string, unknown>;
    const problems: string[] = [];
    for (const banned of ['default', 'minLength', 'maxLength']) if (banned in schema) problems.push(`${path}: ${banned}`);
    if (schema.type === 'object') {
      const keys = Object.keys((schema.properties as object) ?? {});
      const required = (schema.required as string[]) ?? [];
      if (schema.additionalProperties !== false) problems.push(`${path}: open object`);
      for (const key of keys) if (!required.includes(key)) problems.push(`${path}.${key}: not required`);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (Array.isArray(value)) value.forEach((item, i) => problems.push(...strictProblems(item, `${path}.${key}[${i}]`)));
      else if (value && typeof value === 'object') problems.push(...strictProblems(value, `${path}.${key}`));
    }
    return problems;
  }

  it('produce JSON Schemas that strict structured outputs accept, and still parse replies that omit nulls', async () => {
    const { z } = await import('zod');
    const replies = await import('../../../protocols/dialogic/replies.js');
    for (const schema of [replies.GenerationReply, replies.RegenerationReply, replies.VerdictReply, replies.ProposerReply]) {
      expect(strictProblems(z.toJSONSchema(schema, { target: 'draft-7' }))).toEqual([]);
    }
    expect(replies.VerdictReply.parse({ verdict: 'keep', reason: 'I recognise it' })).toEqual({ verdict: 'KEEP', reason: 'I recognise it', revision: null });
    expect(replies.VerdictReply.safeParse({ verdict: 'REFINE', reason: 'vague' }).success).toBe(false);
    expect(replies.ProposerReply.parse({ decision: 'Counter-Revise', reason: 'r', counter_revision: termText('x') }).decision).toBe('counter_revise');
  });
});
