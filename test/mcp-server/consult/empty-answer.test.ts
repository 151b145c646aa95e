import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { lastUserText, closeOpenRigs, startConsultRig, turnMetadata } from './rig.js';

afterEach(closeOpenRigs);

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.includes('(RETRY #1)')) return { text: '1. INFERENCE: Cap the pool at twice the core count.' };
  if (prompt.includes('Iteration 2/8')) return { text: '' };
  return { text: '1. INFERENCE: Use a bounded connection pool.' };
}

describe('an empty answer from Codex (stdio, real codex)', () => {
  it('is a format failure retried inside the same consult: one tool call, two Codex turns, the same session, n stays', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: { waitSeconds: 55 } })).deliberationId;
    const sessionId: string = (await r.stateFile(id)).value.consulteeSessionId;
    const judged = await r.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'bounding the pool protects the database' }],
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(judged.consult).toMatchObject({ status: 'done', codex: { turns: 2 } });
    expect(judged.effects.join(' ')).toMatch(/format failure: the consultee returned an empty answer; n stays 2/);
    expect(judged.at).toBe('n=2 CONSTRUCTIVE active');
    expect(judged.consult.reply.points).toEqual([{ id: 'P2.1', text: 'INFERENCE: Cap the pool at twice the core count.' }]);
    const status = await r.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ n: 2, replyRecorded: true, formatFailures: 0 });

    const audit = await r.audit(id);
    expect(audit.find((a) => a.type === 'consult-error')).toMatchObject({ iteration: 2, kind: 'empty-answer' });
    expect(audit.filter((a) => a.type === 'consult-request').map((a) => [a.iteration, a.kind])).toEqual([[1, 'first'], [2, 'next'], [2, 'retry']]);
    const recorded = audit.filter((a) => a.type === 'move' && a.move === 'reply_record').map((a) => a.input);
    expect(recorded[1]).toEqual({ text: '', formatFailure: 'the consultee returned an empty answer' });
    expect((await r.stateFile(id)).value.counters).toMatchObject({ consecutiveFormatFailures: 0, totalFormatFailures: 1 });
    expect(r.server.requests.map((req) => turnMetadata(req.body).thread_id)).toEqual([sessionId, sessionId, sessionId]);
    expect(r.prompts()[2]).toMatch(/^\(RETRY #1\) Your last reply could not be used: the consultee returned an empty answer\./);
  });
});

describe('an empty first answer (stdio, real codex)', () => {
  it('the retry goes to a fresh session with the whole first prompt behind the (RETRY #1) line', { timeout: 180_000 }, async () => {
    let served = 0;
    const r = await startConsultRig(() => (served++ === 0 ? { text: '' } : { text: '1. INFERENCE: Use a bounded connection pool.' }));
    const started = await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    expect(started.consult).toMatchObject({ status: 'done', codex: { turns: 2 } });
    expect(started.effects).toEqual(expect.arrayContaining([expect.stringMatching(/^format failure: the consultee returned an empty answer; n stays 1/)]));
    expect(started.at).toBe('n=1 CONSTRUCTIVE active');

    const [firstPrompt, retryPrompt] = r.prompts();
    expect(firstPrompt).toMatch(/^You are the consultee/);
    expect(retryPrompt).toBe(`(RETRY #1) Your last reply could not be used: the consultee returned an empty answer. Answer again; a second unusable reply ends the deliberation.\n\n${firstPrompt}`);
    const audit = await r.audit(id);
    expect(audit.filter((a) => a.type === 'consult-request').map((a) => a.kind)).toEqual(['first', 'retry']);
    const retrySession = turnMetadata(r.server.requests[1]!.body).thread_id;
    expect(turnMetadata(r.server.requests[1]!.body).history_initialization).toBe('new');
    expect((await r.stateFile(id)).value.consulteeSessionId).toBe(retrySession);
  });
});
