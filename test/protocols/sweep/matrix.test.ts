import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalJson, costOf, expandSweep, parseShard, parseSweepMatrix, priceFor, selectShard } from '../../../protocols/sweep/index.js';
import { SafeId } from '../../../schemas/common.js';

const base = { modelA: 'openai:gpt-4.1', modelB: 'openai:gpt-4.1-mini' };

describe('sweep matrix', () => {
  it('crosses parameters in order, repetitions inside, with labels and dotted paths', () => {
    const plans = expandSweep({
      protocol: 'dialogic',
      base,
      matrix: {
        personas: ['standard', 'swapped'],
        pairing: [{ label: 'mini-first', set: { modelA: 'openai:gpt-4.1-mini', modelB: 'openai:gpt-4.1' } }, { set: { modelB: 'ollama:llama3.1' } }],
        'stop.max': [1, 2],
      },
      repetitions: 2,
    });
    expect(plans).toHaveLength(16);
    expect(plans.map((plan) => plan.index)).toEqual([...Array(16).keys()]);
    expect(plans[0]).toMatchObject({ repetition: 1, params: { personas: 'standard', pairing: 'mini-first', 'stop.max': '1' } });
    expect(plans[1]).toMatchObject({ repetition: 2, params: plans[0]!.params });
    expect(plans[0]!.config).toEqual({ modelA: 'openai:gpt-4.1-mini', modelB: 'openai:gpt-4.1', personas: 'standard', stop: { max: 1 } });
    expect(plans[2]!.config).toMatchObject({ stop: { max: 2 } });
    // An unlabelled set gets a short hash as its label.
    expect(plans[4]!.params.pairing).toMatch(/^[0-9a-f]{8}$/);
    for (const plan of plans) expect(SafeId.safeParse(plan.id).success).toBe(true);
    expect(new Set(plans.map((plan) => plan.id)).size).toBe(16);
    expect(plans[0]!.id).toMatch(/^dlg-standard-mini-first-1-[0-9a-f]{10}-r1$/);
  });

  it('derives the same ids from the same combination however the file orders its keys', () => {
    const a = expandSweep({ protocol: 'debate', base: { question: 'q', rounds: 2 }, matrix: { pid: [{ label: 'on', set: { pid: { kp: 0.1, ki: 0 } } }] } });
    const b = expandSweep({ protocol: 'debate', base: { rounds: 2, question: 'q' }, matrix: { pid: [{ label: 'on', set: { pid: { ki: 0, kp: 0.1 } } }] } });
    expect(a.map((plan) => plan.id)).toEqual(b.map((plan) => plan.id));
    const c = expandSweep({ protocol: 'debate', base: { question: 'q', rounds: 3 }, matrix: { pid: [{ label: 'on', set: { pid: { kp: 0.1, ki: 0 } } }] } });
    expect(c[0]!.id).not.toBe(a[0]!.id);
  });

  it('takes an explicit list of combinations, and null removes a key', () => {
    const plans = expandSweep({
      protocol: 'debate',
      base: { question: 'q', pid: {}, crit: { judge: 'openai:gpt-4.1' } },
      runs: [{ pid: { label: 'off', set: { pid: null, crit: null } } }, { rounds: 5 }],
    });
    expect(plans.map((plan) => plan.params)).toEqual([{ pid: 'off' }, { rounds: '5' }]);
    expect(plans[0]!.config).toEqual({ question: 'q' });
    expect(plans[1]!.config).toMatchObject({ rounds: 5, pid: {} });
  });

  it('refuses ambiguous sweeps', () => {
    expect(() => parseSweepMatrix({ protocol: 'dialogic', matrix: { a: [1] }, runs: [{ a: 1 }] })).toThrow(/either matrix/);
    expect(() => expandSweep({ protocol: 'dialogic', matrix: { temperature: [0.5, '0.5'] } })).toThrow(/same label/);
    expect(() => parseSweepMatrix({ protocol: 'argumentation' })).toThrow(/protocol/);
  });

  it('splits into shards that are disjoint, cover the sweep and differ in size by at most one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 9 }), (repetitions, count) => {
        const plans = expandSweep({ protocol: 'dialogic', base, matrix: { temperature: [0.1, 0.9] }, repetitions });
        const shards = Array.from({ length: count }, (_, i) => selectShard(plans, { index: i + 1, count }));
        const ids = shards.flat().map((plan) => plan.id);
        expect(ids.sort()).toEqual(plans.map((plan) => plan.id).sort());
        const sizes = shards.map((shard) => shard.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
    );
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', '1/0', 'a/b', '1']) expect(() => parseShard(bad)).toThrow(/invalid shard/);
  });

  it('writes canonical JSON with sorted keys', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}');
  });
});

describe('prices', () => {
  const table = { 'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 }, 'gpt-4.1-mini': { input: 0.4, output: 1.6 }, ollama: { input: 0, output: 0 }, 'openai:special': { input: 9, output: 9 } };

  it('finds a price by spec, model, dated model and provider', () => {
    expect(priceFor('openai:special', table)?.input).toBe(9);
    expect(priceFor('openai:gpt-4.1', table)?.input).toBe(2);
    expect(priceFor('openrouter:gpt-4.1-mini-2025-04-14', table)?.input).toBe(0.4);
    expect(priceFor('openai-compatible:http://h/v1#gpt-4.1', table)?.input).toBe(2);
    expect(priceFor('ollama:llama3.1:8b', table)?.input).toBe(0);
    expect(priceFor('codex:gpt-5.2', table)).toBeUndefined();
    // Local servers cost 0 unless the table prices the model; a remote unknown model has no price.
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:1234/v1', 'http://[::1]:11434/v1']) expect(priceFor(`openai-compatible:${url}#my-model`, table)).toEqual({ input: 0, output: 0 });
    expect(priceFor('openai-compatible:http://127.0.0.1:8080/v1#gpt-4.1', table)?.input).toBe(2);
    expect(priceFor('openai-compatible:https://example.com/v1#my-model', table)).toBeUndefined();
  });

  it('bills cached input at its own price and counts reasoning inside output', () => {
    const usage = { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 500_000, reasoningTokens: 200_000 };
    expect(costOf(usage, table['gpt-4.1'])).toBeCloseTo(0.6 * 2 + 0.4 * 0.5 + 0.5 * 8, 10);
    expect(costOf(usage, table['gpt-4.1-mini'])).toBeCloseTo(0.4 + 0.5 * 1.6, 10);
  });
});
