import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../servers/scripted-responses.js';
import { lastUserText, startConsultRig, turnMetadata, type ConsultRig } from './rig.js';

let rig: ConsultRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.includes('(RETRY #1)')) return { text: '1. INFERENCE: Cap the pool at twice the core count.' };
  if (prompt.includes('Iteration 2/8')) return { text: '' };
  return { text: '1. INFERENCE: Use a bounded connection pool.' };
}

describe('an empty answer from Codex (stdio, real codex)', () => {
  it('is a format failure: n stays, the audit says why, the retry goes to the same session', async () => {
    rig = await startConsultRig(consultee);
    const r = rig;
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?' })).deliberationId;
    const first = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    const sessionId: string = first.consult.sessionId;
    await r.ok('point_triage', { deliberationId: id, pointId: 'P1.1', triage: 'in-scope', reason: 'it sizes the pool as asked' });
    await r.ok('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'AGREE', claimType: 'value', reason: 'bounding the pool protects the database' });
    await r.ok('iteration_advance', { deliberationId: id });

    const empty = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(empty.consult).toMatchObject({ status: 'done', reply: '' });
    expect(empty.effects.join(' ')).toMatch(/format failure: the consultee returned an empty answer; n stays 2/);
    expect(empty.status).toMatchObject({ n: 2, replyRecorded: false, formatFailures: 1 });
    const retried = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(retried.consult).toMatchObject({ status: 'done', kind: 'retry', sessionId });
    expect(retried.status).toMatchObject({ n: 2, replyRecorded: true, formatFailures: 0 });

    const audit = await r.audit(id);
    expect(audit.find((a) => a.type === 'consult-error')).toMatchObject({ iteration: 2, kind: 'empty-answer' });
    const recorded = audit.filter((a) => a.type === 'move' && a.move === 'reply_record').map((a) => a.input);
    expect(recorded[1]).toEqual({ text: '', formatFailure: 'the consultee returned an empty answer' });
    expect(r.server.requests.map((req) => turnMetadata(req.body).thread_id)).toEqual([sessionId, sessionId, sessionId]);
    expect(r.prompts()[2]).toMatch(/^\(RETRY #1\) Your last reply could not be used: the consultee returned an empty answer\./);
  });
});

describe('an empty first answer (stdio, real codex)', () => {
  it('the retry goes to a fresh session with the whole first prompt behind the (RETRY #1) line', async () => {
    let served = 0;
    rig = await startConsultRig(() => (served++ === 0 ? { text: '' } : { text: '1. INFERENCE: Use a bounded connection pool.' }));
    const r = rig;
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?' })).deliberationId;
    const empty = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(empty.status).toMatchObject({ n: 1, replyRecorded: false, formatFailures: 1 });
    const retried = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(retried.consult).toMatchObject({ status: 'done', kind: 'retry' });
    expect(retried.effects).toContain('1 new point(s) to triage');

    const [firstPrompt, retryPrompt] = r.prompts();
    expect(firstPrompt).toMatch(/^You are the consultee/);
    expect(retryPrompt).toBe(`(RETRY #1) Your last reply could not be used: the consultee returned an empty answer. Answer again; a second unusable reply ends the deliberation.\n\n${firstPrompt}`);
    const audit = await r.audit(id);
    expect(audit.filter((a) => a.type === 'consult-request').map((a) => a.kind)).toEqual(['first', 'retry']);
    expect((await r.stateFile(id)).value.consulteeSessionId).toBe(retried.consult.sessionId);
  });
});
