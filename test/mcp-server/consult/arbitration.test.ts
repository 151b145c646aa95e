import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { lastUserText, closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.startsWith('You review the outcome')) return { text: 'P1.1: OK' };
  if (prompt.includes('Iteration 1/8')) return { text: '1. INFERENCE: Bound the pool at twice the core count.' };
  return { text: 'No further points.' };
}

const agreed = { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a bounded pool protects the database under load' };
const synthesis = { recommendation: 'Bound the pool at twice the core count', confidence: 'medium' };

describe('delib_arbitrate asks the engine before any model call (stdio, real codex)', () => {
  it('refuses before termination and outside standard mode without sending the reviewer anything', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);

    // Standard, still active: the engine's precheck refuses; the model server sees no request.
    const standard: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', mode: 'standard' })).deliberationId;
    expect(r.server.requests).toHaveLength(1);
    expect(await r.refused('delib_arbitrate', { deliberationId: standard, waitSeconds: 55 })).toMatch(/^\[arbitrate-after-termination\] .*terminate the deliberation first.*Legal next moves: delib_judge/);
    expect(r.server.requests).toHaveLength(1);
    expect((await r.audit(standard)).map((a) => a.type)).not.toContain('arbitration-request');

    // Minimal, terminated: no arbitration in this mode, and still no request.
    const minimal: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', mode: 'minimal' })).deliberationId;
    await r.ok('delib_judge', { deliberationId: minimal, points: [agreed], phase: { advance: true } });
    const ended = await r.ok('delib_judge', { deliberationId: minimal, phase: { advance: true }, synthesis });
    expect(ended.at).toBe('n=2 CONSTRUCTIVE terminated');
    expect(ended.next.join('\n')).not.toMatch(/delib_arbitrate/);
    const sent = r.server.requests.length;
    expect(sent).toBe(3);
    expect(await r.refused('delib_arbitrate', { deliberationId: minimal, waitSeconds: 55 })).toMatch(/^\[mode-minimal\] minimal mode has no arbitration/);
    expect(r.server.requests).toHaveLength(sent);
    expect((await r.audit(minimal)).map((a) => a.type)).not.toContain('arbitration-request');
  });

  it('flags given by the orchestrator (items) are recorded without a model call, remarks included', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', mode: 'standard' })).deliberationId;
    await r.ok('delib_judge', { deliberationId: id, points: [agreed], phase: { advance: true } });
    const ended = await r.ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis });
    expect(ended.at).toBe('n=2 CONSTRUCTIVE terminated');
    const sent = r.server.requests.length;

    // Coverage is the engine's rule: one flag per bucket item.
    expect(await r.refused('delib_arbitrate', { deliberationId: id, items: [{ ref: 'P9.9', flagged: true }] })).toMatch(/^\[arbitration-coverage\] .*missing: P1\.1; unknown: P9\.9/);
    const recorded = await r.ok('delib_arbitrate', { deliberationId: id, items: [{ ref: 'P1.1', flagged: true, note: 'no load test backs the factor of two' }], remarks: 'Nobody measured the pool under load.' });
    expect(recorded.arbitration).toEqual({ status: 'done', flagged: [{ ref: 'P1.1', why: 'no load test backs the factor of two' }], reviewed: 1, remarks: 'Nobody measured the pool under load.' });
    expect(recorded.effects).toEqual(['arbitration: 1/1 flagged: the result carries a warning', 'report rebuilt with the arbitration']);
    // The brief was read once already: the result carries what is new; the report file, rewritten, carries it all.
    expect(recorded.brief).toBeUndefined();
    expect(r.server.requests).toHaveLength(sent);
    const { value: state } = await r.stateFile(id);
    const file = await readFile(join(r.stateDir, 'deliberations', `${id}.report.md`), 'utf8');
    expect(file).toContain('no load test backs the factor of two');
    expect(file).toContain('Nobody measured the pool under load.');
    expect((await r.ok('delib_status', { deliberationId: id })).brief.reviewer).toEqual(['a fresh reviewer flagged 1 of 1 placements', expect.stringMatching(/^flagged ".*": no load test backs the factor of two$/), 'Nobody measured the pool under load.']);
    expect(state.arbitration).toMatchObject({ reviewer: 'given by the orchestrator', remarks: 'Nobody measured the pool under load.', warning: true, items: [{ ref: 'P1.1', flagged: true, note: 'no load test backs the factor of two' }] });
  });
});
