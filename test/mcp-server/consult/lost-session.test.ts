import { afterEach, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { lastUserText, closeOpenRigs, startConsultRig, turnMetadata } from './rig.js';

afterEach(closeOpenRigs);

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.includes('(RECOVERY)')) return { text: '1. Re C1: INFERENCE: the queue absorbs bursts up to the broker limit.' };
  if (prompt.includes('Iteration 1/8')) return { text: '1. INFERENCE: Put a queue in front of the mailer.\n2. GUESS: Batch sends every minute.' };
  return { status: 500, errorBody: `unexpected prompt: ${prompt.slice(0, 200)}` };
}

describe('a lost Codex session (stdio, real codex)', () => {
  it('recovers in a fresh session at the same n with the whole state in the recovery prompt', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const id: string = (await r.ok('delib_start', { question: 'How should the mailer survive bursts?', constraints: ['Peak: 2,000 mails per second'], consult: { waitSeconds: 55 } })).deliberationId;
    const lostSession: string = (await r.stateFile(id)).value.consulteeSessionId;
    // consult: false, so the session can be lost between the advance and the next consult.
    const judged = await r.ok('delib_judge', {
      deliberationId: id,
      ledger: [{ action: 'add', tag: 'verified', text: 'The broker caps a queue at 1M messages', reference: 'broker.conf:12 "max_length = 1000000"' }],
      points: [
        { id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'A queue moves the burst but does not say how deep it may grow.' },
        { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'batching trades latency for throughput, acceptable here' },
      ],
      phase: { advance: true },
      consult: false,
    });
    expect(judged).toMatchObject({ at: 'n=2 CONSTRUCTIVE active', next: [expect.stringMatching(/^delib_consult: ask Codex for iteration 2/)] });

    await rm(join(r.codex.codexHome, 'sessions'), { recursive: true, force: true });
    const recovered = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 55 });
    expect(recovered.consult).toMatchObject({ status: 'done', codex: { turns: 1, recovered: true } });
    const freshSession: string = (await r.stateFile(id)).value.consulteeSessionId;
    expect(freshSession).not.toBe(lostSession);
    expect(recovered.at).toBe('n=2 CONSTRUCTIVE active');
    expect(recovered.next.join('\n')).toMatch(/judge C1/);
    expect(recovered.consult.reply.answers).toEqual([{ challenge: 'C1', point: 'P1.1', text: expect.stringContaining('the queue absorbs bursts') }]);

    const audit = await r.audit(id);
    const attempt = audit.filter((a) => a.type === 'consult-request').at(-1);
    expect(attempt).toMatchObject({ iteration: 2, kind: 'next', sessionId: lostSession });
    const recovery = audit.find((a) => a.type === 'consult-recovery');
    expect(recovery).toMatchObject({ iteration: 2 });
    expect(String(recovery?.reason)).toMatch(/codex has no session/);
    const prompt = String(recovery?.prompt);
    expect(prompt).toContain('(RECOVERY) The earlier session was lost. This is the full state so far; continue at iteration 2.');
    expect(prompt).toContain('F1 [user] Peak: 2,000 mails per second');
    expect(prompt).toContain('F2 [verified: broker.conf:12 "max_length = 1000000"] The broker caps a queue at 1M messages');
    expect(prompt).toContain('Open challenges (answer each by id):\nC1 (SKEPTICAL) on P1.1: A queue moves the burst but does not say how deep it may grow');
    expect(prompt).toMatch(/Points so far \(each as it now stands\):\nP1\.1 \(contested\):\n> (1\. )?INFERENCE: Put a queue in front of the mailer\.\nP1\.2 \(agreed\):\n> /);
    expect(audit.filter((a) => a.type === 'consult-reply').at(-1)).toMatchObject({ kind: 'recovery', sessionId: freshSession, iteration: 2 });

    // Codex saw a new thread seeded with that prompt; the state now names the fresh session.
    expect(r.server.requests).toHaveLength(2);
    expect(r.prompts()[1]).toBe(prompt);
    expect(turnMetadata(r.server.requests[1]!.body)).toMatchObject({ thread_id: freshSession, history_initialization: 'new', sandbox_mode: 'read-only' });
    expect((await r.stateFile(id)).value.consulteeSessionId).toBe(freshSession);
  });
});
