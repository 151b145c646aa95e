import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../servers/scripted-responses.js';
import { lastUserText, startConsultRig, turnMetadata, type ConsultRig } from './rig.js';

let rig: ConsultRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const FIRST_REPLY = [
  '1. INFERENCE: Put a write-through cache in front of the orders table; reads dominate writes.',
  '2. GUESS: Shard the cache by customer id to spread hot keys.',
  '3. INFERENCE: Drop the database replica once the cache is warm.',
  '4. EVIDENCE: The orders service already retries idempotently (src/orders.ts:42 "retry(() => put(order))").',
].join('\n');
const PROSE_REPLY = 'Happy to keep going, though I think we mostly agree by now.';
const RETRY_REPLY = [
  '1. Re C1: INFERENCE: write-through keeps the cache coherent on every write, so stale reads cannot outlive a write.',
  '2. I concede C3: the replica also serves failover, the cache cannot replace it.',
].join('\n');
const QUIET_REPLY = '1. Re C1: INFERENCE: nothing further to add on C1.';
const ARBITER_REPLY = ['P1.1: OK', 'P1.2: FLAG the dismissal came from silence, not from a rebuttal', 'P1.3: OK', 'P1.4: OK'].join('\n');

/** Routes by what the prompt says (iteration line, retry marker, arbitration header), not by order. */
function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.startsWith('You review the outcome of a deliberation')) return { text: ARBITER_REPLY };
  if (prompt.includes('(RETRY #1)')) return { text: RETRY_REPLY };
  if (prompt.includes('Iteration 1/8')) return { text: FIRST_REPLY };
  if (prompt.includes('Iteration 2/8')) return { text: PROSE_REPLY };
  if (/Iteration [34]\/8/.test(prompt)) return { text: QUIET_REPLY };
  return { status: 500, errorBody: `unexpected prompt: ${prompt.slice(0, 200)}` };
}

describe('a standard deliberation driven only through the MCP tools (stdio, real codex)', () => {
  it('defense, reminder then undefended, concession, retry, evidence gate, convergence, synthesis, arbitration', async () => {
    rig = await startConsultRig(consultee);
    const r = rig;
    const started = await r.ok('delib_start', { question: 'Should the orders service use a write-through cache?', mode: 'standard', constraints: ['Budget: one engineer-week'] });
    const id: string = started.deliberationId;

    // Iteration 1: the first prompt opens a new Codex session.
    const first = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(first.consult).toMatchObject({ status: 'done', kind: 'first', recovered: false, reply: FIRST_REPLY });
    const sessionId: string = first.consult.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.effects).toContain('4 new point(s) to triage');
    for (const pointId of ['P1.1', 'P1.2', 'P1.3', 'P1.4']) await r.ok('point_triage', { deliberationId: id, pointId, triage: 'in-scope', reason: 'it answers the question asked' });
    const c1 = await r.ok('point_evaluate', { deliberationId: id, pointId: 'P1.1', classification: 'SKEPTICAL', flaw: 'Write-through alone does not say how stale reads are prevented' });
    expect(c1.effects).toContain('C1 opened (SKEPTICAL) on P1.1');
    await r.ok('point_evaluate', { deliberationId: id, pointId: 'P1.2', classification: 'SKEPTICAL', flaw: 'The hot-key load that would justify sharding is not shown' });
    await r.ok('point_evaluate', {
      deliberationId: id, pointId: 'P1.3', classification: 'REJECT', flaw: 'The replica is the failover path, not only a read path',
      claimType: 'empirical', evidence: 'ops runbook: failover promotes the replica', terminalWhy: 'removing failover is out of the question',
    });
    // The evidence gate: an empirical claim is not Agreed on the consultee's word.
    const gate = await r.refused('point_evaluate', { deliberationId: id, pointId: 'P1.4', classification: 'AGREE', claimType: 'empirical', reason: 'the retry is idempotent as quoted' });
    expect(gate).toMatch(/^\[evidence-gate\]/);
    const agreed = await r.ok('point_evaluate', {
      deliberationId: id, pointId: 'P1.4', classification: 'AGREE', claimType: 'empirical', evidenceType: 'textual',
      evidence: 'src/orders.ts:42 "retry(() => put(order))"', reason: 'the quoted line shows the idempotent retry',
    });
    expect(agreed.effects).toContain('P1.4 -> Agreed (textual)');
    await r.ok('iteration_advance', { deliberationId: id });

    // Iteration 2: an unusable reply is a format failure; n stays, the next consult retries in the same session.
    const failed = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(failed.consult).toMatchObject({ status: 'done', kind: 'next', sessionId });
    expect(failed.effects.join(' ')).toMatch(/format failure: no numbered points/);
    expect(failed.status).toMatchObject({ n: 2, replyRecorded: false, formatFailures: 1 });
    const retried = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(retried.consult).toMatchObject({ status: 'done', kind: 'retry', sessionId });
    expect(retried.effects).toEqual(expect.arrayContaining([
      'C1 defended: judge it with challenge_resolve',
      'C2 dropped: the next prompt carries a reminder',
      'C3 conceded: P1.3 -> Dismissed CONCEDED (iter 2)',
    ]));
    await r.ok('challenge_resolve', { deliberationId: id, challengeId: 'C1', verdict: 'accepted', claimType: 'value', reason: 'coherence on write answers the staleness objection' });
    const extended = await r.ok('iteration_advance', { deliberationId: id });
    expect(extended.effects[0]).toMatch(/extended CONSTRUCTIVE at n=3/);

    // Iteration 3 carries the reminder; C2 goes unanswered again and is dismissed as undefended.
    const third = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    expect(third.effects).toContain('C2 undefended: P1.2 -> Dismissed UNDEFENDED (iter 3)');
    await r.ok('iteration_advance', { deliberationId: id });
    await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30 });
    const converged = await r.ok('iteration_advance', { deliberationId: id });
    expect(converged.effects).toEqual(['converged: delib_synthesize']);
    expect(converged.status).toMatchObject({ status: 'terminated', termination: { reason: 'convergence' } });

    const synthesized = await r.ok('delib_synthesize', { deliberationId: id });
    expect(synthesized.effects.at(-1)).toBe('report ready: 2 agreed, 2 dismissed, 0 unresolved, 0 not evaluated');
    // The report reaches the agent in the tool result, not only the state file.
    expect(synthesized.report.markdown).toMatch(/AGREED[\s\S]*DISMISSED[\s\S]*UNRESOLVED[\s\S]*SURFACED QUESTIONS[\s\S]*NOT EVALUATED/);
    expect(synthesized.report.json.agreed).toHaveLength(2);
    const arbitrated = await r.ok('delib_arbitrate', { deliberationId: id });
    expect(arbitrated.arbitration).toMatchObject({ status: 'done' });
    expect(arbitrated.arbitration.flagged).toEqual(['P1.2']);

    // The state file on disk.
    const { value: state } = await r.stateFile(id);
    expect(state).toMatchObject({ n: 4, status: 'terminated', consulteeSessionId: sessionId, counters: { consecutiveFormatFailures: 0, totalFormatFailures: 1 } });
    expect(state.buckets.agreed.map((i: any) => i.pointId).sort()).toEqual(['P1.1', 'P1.4']);
    expect(state.buckets.dismissed.map((i: any) => [i.pointId, i.tag])).toEqual([['P1.3', 'CONCEDED'], ['P1.2', 'UNDEFENDED']]);
    expect(state.challenges.map((c: any) => [c.id, c.status])).toEqual([['C1', 'resolved'], ['C2', 'undefended'], ['C3', 'conceded']]);
    expect(state.arbitration).toMatchObject({ flaggedRatio: 0.25, warning: false });
    const markdown: string = state.report.markdown;
    for (const section of ['# Deliberation report', '## AGREED', '## DISMISSED', '## UNRESOLVED', '## SURFACED QUESTIONS', '## NOT EVALUATED']) expect(markdown).toContain(section);
    expect(markdown).toMatch(/\*\*P1\.4\*\*[\s\S]*empirical, evidence textual: src\/orders\.ts:42/);
    expect(markdown).toMatch(/\*\*P1\.2\*\*[\s\S]*UNDEFENDED/);
    expect(markdown).toMatch(/ended by convergence/);

    // The audit log: every prompt and raw reply, every move, the refusal, the arbitration.
    const audit = await r.audit(id);
    const requests = audit.filter((a) => a.type === 'consult-request');
    const replies = audit.filter((a) => a.type === 'consult-reply');
    expect(requests.map((a) => [a.iteration, a.kind])).toEqual([[1, 'first'], [2, 'next'], [2, 'retry'], [3, 'next'], [4, 'next']]);
    expect(replies.map((a) => a.reply)).toEqual([FIRST_REPLY, PROSE_REPLY, RETRY_REPLY, QUIET_REPLY, QUIET_REPLY]);
    expect(replies.every((a) => a.sessionId === sessionId)).toBe(true);
    expect(String(requests[2]?.prompt)).toMatch(/^\(RETRY #1\) Your last reply could not be used: no numbered points/);
    expect(String(requests[3]?.prompt)).toContain('REMINDER: you did not answer C2');
    const refusal = audit.find((a) => a.type === 'move' && a.move === 'point_evaluate' && a.changed === false);
    expect(refusal).toMatchObject({ input: { pointId: 'P1.4' }, result: { ok: false, refusal: { rule: 'evidence-gate' } } });
    const moves = audit.filter((a) => a.type === 'move' && a.changed !== false).map((a) => a.move);
    expect(moves.filter((m) => m === 'reply_record')).toHaveLength(5);
    expect(moves).toEqual(expect.arrayContaining(['delib_start', 'point_triage', 'challenge_resolve', 'iteration_advance', 'delib_synthesize', 'arbitration_record']));
    expect(audit.find((a) => a.type === 'arbitration-reply')).toMatchObject({ reply: ARBITER_REPLY });

    // What Codex received: the prompts the audit says were sent, one thread growing, read-only.
    const sent = r.server.requests.map((req) => ({ prompt: lastUserText(req.body), meta: turnMetadata(req.body), size: JSON.stringify(req.body.input).length }));
    expect(sent).toHaveLength(6);
    const consults = sent.slice(0, 5);
    expect(consults.map((s) => s.prompt)).toEqual(requests.map((a) => a.prompt));
    expect(consults.every((s) => s.meta.thread_id === sessionId && s.meta.sandbox_mode === 'read-only')).toBe(true);
    expect(consults.map((s) => s.meta.history_initialization)).toEqual(['new', 'cold_resume', 'cold_resume', 'cold_resume', 'cold_resume']);
    for (let i = 1; i < consults.length; i++) {
      expect(consults[i]!.size).toBeGreaterThan(consults[i - 1]!.size);
      // Each resumed request carries the whole conversation so far: the earlier prompts and replies.
      const input = JSON.stringify(r.server.requests[i]!.body.input);
      expect(input).toContain(JSON.stringify(consults[i - 1]!.prompt).slice(1, -1));
      expect(input).toContain(JSON.stringify(replies[i - 1]!.reply).slice(1, -1));
    }
    // The arbiter is a fresh session that saw none of the consult.
    const arbiter = sent[5]!;
    expect(arbiter.meta.thread_id).not.toBe(sessionId);
    expect(arbiter.meta).toMatchObject({ history_initialization: 'new', sandbox_mode: 'read-only' });
    expect(JSON.stringify(r.server.requests[5]!.body.input)).not.toContain('Iteration 1/8');
    expect(arbiter.prompt).not.toMatch(/codex|consultee/i);
  });
});
