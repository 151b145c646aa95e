import { afterEach, describe, expect, it } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { processesUsing, until } from '../../wrapper/codex/live-helpers.js';
import { lastUserText, closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

const REPLY = '1. INFERENCE: Retry with jitter.\n2. GUESS: Cap retries at five.';

/** The "slow" question answers after 3 s, the "stuck" one after 20 s (it gets canceled first). */
function consultee({ body }: { body: unknown }) {
  return { text: REPLY, delayMs: lastUserText(body).includes('stuck') ? 20_000 : 3_000 };
}

describe('a consult that outlives waitSeconds (stdio, real codex)', () => {
  it("returns 'running' (here from delib_start itself), then the reply on the next call, with progress notifications", { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const firstCall: Progress[] = [];
    const secondCall: Progress[] = [];

    const waiting = await r.ok('delib_start', { question: 'slow: how should clients retry?', consult: { waitSeconds: 1 } }, { onprogress: (p) => firstCall.push(p) });
    const id: string = waiting.deliberationId;
    expect(waiting.consult.status).toBe('running');
    expect(waiting.at).toBe('n=1 CONSTRUCTIVE active');
    expect(waiting.next).toEqual([expect.stringMatching(/^delib_consult: Codex is still answering/)]);
    const done = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 55 }, { onprogress: (p) => secondCall.push(p) });
    expect(done.consult).toMatchObject({ status: 'done', reply: { iteration: 1, points: [{ id: 'P1.1', text: 'INFERENCE: Retry with jitter.' }, { id: 'P1.2', text: 'GUESS: Cap retries at five.' }] } });
    expect(done.effects).not.toContain('2 new point(s) to judge');
    // One Codex turn served both calls.
    expect(r.server.requests).toHaveLength(1);
    // The reply arrives while the second call waits: Codex's closing events reach it as progress.
    expect(secondCall.map((p) => p.message)).toContain('codex: turn.completed');
    for (const call of [firstCall, secondCall]) expect(call.map((p) => p.progress)).toEqual(call.map((_, i) => i + 1));
  });

  it('cancel mid-consult leaves the state unchanged and no codex process behind', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const id: string = (await r.ok('delib_start', { question: 'stuck: how should clients retry?', consult: false })).deliberationId;
    const before = await r.stateFile(id);
    const waiting = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 0.2 });
    expect(waiting.consult.status).toBe('running');
    // Codex is mid-turn: its request reached the model server and waits for the answer.
    await until(() => r.server.requests.length === 1, 'codex to send its request');
    const codexProcesses = () => processesUsing(r.codex.codexHome).filter((pid) => pid !== r.serverPid);
    expect(codexProcesses().length).toBeGreaterThan(0);

    const canceled = await r.ok('delib_consult', { deliberationId: id, cancel: true });
    expect(canceled.consult.status).toBe('canceled');
    expect(canceled.effects).toEqual(['consult canceled; the state is unchanged']);
    await until(() => codexProcesses().length === 0, 'the codex process group to be gone');

    const after = await r.stateFile(id);
    expect(after).toEqual(before);
    const audit = await r.audit(id);
    expect(audit.map((a) => a.type)).toEqual(['move', 'consult-request', 'consult-error']);
    expect(audit[2]).toMatchObject({ kind: 'canceled' });
    // The deliberation is still usable: the next consult starts over (and is canceled again here).
    const again = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 0 });
    expect(again.consult.status).toBe('running');
    await r.ok('delib_consult', { deliberationId: id, cancel: true });
    await until(() => codexProcesses().length === 0, 'the second codex process group to be gone');
  });
});
