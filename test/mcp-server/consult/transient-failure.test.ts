import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { closeOpenRigs, startConsultRig, turnMetadata } from './rig.js';

afterEach(closeOpenRigs);

const FIRST = '1. INFERENCE: Use a bounded connection pool.';
const SECOND = '1. INFERENCE: Cap the pool at twice the core count.';
const agreed = { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a bounded pool protects the database' };

describe('a consult that meets a transient failure (stdio, real codex)', () => {
  it('a stream cut before any answer is sent again once by itself: one consult, two requests, one turn; on resume in the same thread', { timeout: 180_000 }, async () => {
    // Each turn's stream is cut once, before the model said anything, then answered.
    const script: ResponsesScriptStep[] = [{ cutStream: true }, { text: FIRST }, { cutStream: true }, { text: SECOND }];
    const r = await startConsultRig(script);
    const started = await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    expect(started.consult).toMatchObject({ status: 'done', reply: { points: [{ id: 'P1.1', text: 'INFERENCE: Use a bounded connection pool.' }] } });
    expect(r.server.requests).toHaveLength(2);
    // The cut first turn had started a thread of its own; the retry's thread is the deliberation's.
    const sessionId: string = (await r.stateFile(id)).value.consulteeSessionId;
    expect(turnMetadata(r.server.requests[1]!.body).thread_id).toBe(sessionId);

    const judged = await r.ok('delib_judge', { deliberationId: id, points: [agreed], phase: { advance: true }, consult: { waitSeconds: 55 } });
    expect(judged.consult).toMatchObject({ status: 'done', reply: { points: [{ id: 'P2.1', text: 'INFERENCE: Cap the pool at twice the core count.' }] } });
    expect(r.server.requests).toHaveLength(4);
    // The resumed turn and its retry both went to the deliberation's thread.
    expect(r.server.requests.slice(2).map((req) => turnMetadata(req.body).thread_id)).toEqual([sessionId, sessionId]);
    expect((await r.stateFile(id)).value.consulteeSessionId).toBe(sessionId);

    const audit = await r.audit(id);
    expect(audit.filter((a) => a.type === 'consult-request').map((a) => [a.iteration, a.kind])).toEqual([[1, 'first'], [2, 'next']]);
    const replies = audit.filter((a) => a.type === 'consult-reply');
    expect(replies.map((a) => a.reply)).toEqual([FIRST, SECOND]);
    for (const reply of replies) expect(String(reply.retriedAfter)).toMatch(/stream disconnected before completion.*\(a transient failure between Codex and the model provider\)/);
    expect(audit.filter((a) => a.type === 'move' && a.move === 'reply_record' && a.changed)).toHaveLength(2);
    expect(audit.map((a) => a.type)).not.toContain('consult-error');
  });

  it('a cut after Codex answered (that would bill the turn twice), or a failure that is not transient, is not sent again; each says what to do', { timeout: 180_000 }, async () => {
    const r = await startConsultRig([{ text: FIRST, cutStream: true }, { text: SECOND }]);
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: false })).deliberationId;
    const refusal = await r.refused('delib_consult', { deliberationId: id, waitSeconds: 55 });
    expect(refusal).toMatch(/^\[consult-failed\] the consult failed: codex turn failed: stream disconnected before completion/);
    expect(refusal).toContain('(a transient failure, but Codex had answered before it: sending the turn again would bill it twice)');
    expect(refusal).toContain('The state is unchanged; call delib_consult to ask Codex again');
    expect(r.server.requests).toHaveLength(1);
    expect((await r.stateFile(id)).value.replyRecorded).toBe(false);

    // A failure that is not transient is not sent again either, and its advice stays: fix the cause.
    const denied = await startConsultRig([{ status: 401, errorBody: 'Incorrect API key provided' }, { text: FIRST }]);
    const other: string = (await denied.ok('delib_start', { question: 'How big should the DB pool be?', consult: false })).deliberationId;
    const unauthorized = await denied.refused('delib_consult', { deliberationId: other, waitSeconds: 55 });
    expect(unauthorized).toMatch(/Incorrect API key provided/);
    expect(unauthorized).toContain('The state is unchanged; fix the cause and call delib_consult again');
    expect(unauthorized).not.toMatch(/transient/);
    expect(denied.server.requests).toHaveLength(1);
  });
});
