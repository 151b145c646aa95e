import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleReportItems } from '../../../protocols/argumentation/index.js';
import { DeliberationState } from '../../../schemas/argumentation.js';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { lastUserText, closeOpenRigs, startConsultRig, turnMetadata } from './rig.js';

afterEach(closeOpenRigs);

const FIRST_REPLY = [
  '1. INFERENCE: Put a write-through cache in front of the orders table; reads dominate writes.',
  '2. GUESS: Shard the cache by customer id to spread hot keys.',
  '3. INFERENCE: Drop the database replica once the cache is warm.',
  '4. EVIDENCE: The orders service already retries idempotently (src/orders.ts:42 "retry(() => put(order))").',
].join('\n');
const PROSE_REPLY = 'Happy to keep going, though I think we mostly agree by now.';
const DEFENSE_C1 = 'Re C1: INFERENCE: write-through keeps the cache coherent on every write, so stale reads cannot outlive a write.';
const RETRY_REPLY = [`1. ${DEFENSE_C1}`, '2. I concede C3: the replica also serves failover, the cache cannot replace it.'].join('\n');
const QUIET_REPLY = 'No further points.';
const REMARKS = 'The sharding side was never argued by anyone who wanted it to win.';
const ARBITER_REPLY = ['P1.1: OK', 'P1.2: FLAG the dismissal came from silence, not from a rebuttal', 'P1.3: OK', 'P1.4: OK the quoted line supports it', '', 'Remarks:', REMARKS].join('\n');
const RECOMMENDATION = { recommendation: 'Yes: a write-through cache, and keep the replica for failover', confidence: 'medium', caveats: ['Hot keys were never measured'] };

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
  it('defense, reminder then undefended, concession, retry, evidence gate, convergence, synthesis, arbitration', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    const calls: string[] = [];
    const ok = (name: string, args: Record<string, unknown>) => {
      calls.push(name);
      return r.ok(name, args);
    };

    // Iteration 1: start asks Codex at once, in a new session, and returns the reply as read.
    const started = await ok('delib_start', { question: 'Should the orders service use a write-through cache?', mode: 'standard', constraints: ['Budget: one engineer-week'], consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    expect(started.consult).toMatchObject({ status: 'done' });
    // One turn for one question is no news: only a retry or a recovered session reports Codex's turns.
    expect(started.consult).not.toHaveProperty('codex');
    expect(started.consult.reply.points).toEqual([
      { id: 'P1.1', text: 'INFERENCE: Put a write-through cache in front of the orders table; reads dominate writes.' },
      { id: 'P1.2', text: 'GUESS: Shard the cache by customer id to spread hot keys.' },
      { id: 'P1.3', text: 'INFERENCE: Drop the database replica once the cache is warm.' },
      { id: 'P1.4', text: 'EVIDENCE: The orders service already retries idempotently (src/orders.ts:42 "retry(() => put(order))").' },
    ]);
    expect(started.effects).not.toContain('4 new point(s) to judge');
    const sessionId: string = (await r.stateFile(id)).value.consulteeSessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

    // The evidence gate: an empirical claim is not Agreed on the consultee's word. The other items apply; no advance, no consult.
    const points = [
      { id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'Write-through alone does not say how stale reads are prevented.' },
      { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'The hot-key load that would justify sharding is not shown.' },
      { id: 'P1.3', verdict: 'REJECT', flaw: 'The replica is the failover path, not only a read path.', claimType: 'empirical', evidence: 'ops runbook: failover promotes the replica', terminalWhy: 'removing failover is out of the question' },
    ];
    const gated = await ok('delib_judge', { deliberationId: id, points: [...points, { id: 'P1.4', verdict: 'AGREE', claimType: 'empirical', reason: 'the retry is idempotent as quoted' }], phase: { advance: true } });
    expect(gated.refused).toEqual([expect.objectContaining({ item: 'points[3]', ref: 'P1.4', rule: 'evidence-gate', legal: expect.arrayContaining(['verdict']) })]);
    expect(gated.effects).toEqual(expect.arrayContaining(['C1 opened (SKEPTICAL) on P1.1', 'C2 opened (SKEPTICAL) on P1.2', 'C3 opened (REJECT) on P1.3: single defense round']));
    expect(gated.at).toBe('n=1 CONSTRUCTIVE active');
    expect(r.server.requests).toHaveLength(1);

    // Iteration 2: the advance asks Codex; its prose reply is a format failure, retried inside the same consult.
    const second = await ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.4', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'src/orders.ts:42 "retry(() => put(order))"', reason: 'the quoted line shows the idempotent retry' }],
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(second.refused).toBeUndefined();
    expect(second.at).toBe('n=2 CONSTRUCTIVE active');
    expect(second.consult).toMatchObject({ status: 'done', codex: { turns: 2 } });
    expect(second.effects.join('\n')).toMatch(/\bP1\.4\b[^\n]* -> Agreed \(textual\)[\s\S]*format failure: no numbered points/);
    // The challenges the reply closed are named once, in the effects; the defense is the reply's answer and next's verdict.
    expect(second.effects).toEqual(expect.arrayContaining(['C2 dropped: the next prompt carries a reminder', 'C3 conceded: P1.3 -> Dismissed CONCEDED']));
    expect(second.effects).not.toContain('C1 defended: judge it');
    expect(second.consult.reply).toMatchObject({ iteration: 2, points: [], answers: [{ challenge: 'C1', point: 'P1.1', text: DEFENSE_C1 }] });
    expect(second.consult.reply).not.toHaveProperty('closed');
    expect(second.next.join('\n')).toMatch(/delib_judge: judge C1 \(accepted\|rejected\|rebutted\)/);

    // Iteration 3 (extended CONSTRUCTIVE) carries the reminder; C2 goes unanswered again and is dismissed as undefended.
    const third = await ok('delib_judge', {
      deliberationId: id,
      challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'coherence on write answers the staleness objection' }],
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(third.effects.join('\n')).toMatch(/extended CONSTRUCTIVE at n=3/);
    expect(third.effects).toEqual(expect.arrayContaining(['C2 undefended: P1.2 -> Dismissed UNDEFENDED', 'the consultee has nothing further']));
    expect(third.consult.reply).toMatchObject({ iteration: 3, nothingFurther: true, points: [] });
    const fourth = await ok('delib_judge', { deliberationId: id, phase: { advance: true }, consult: { waitSeconds: 55 } });
    expect(fourth.at).toBe('n=4 DEVELOPMENT active');

    // Converged: the same judgment synthesizes and returns the brief for the answer; the full report is a file beside the state.
    const converged = await ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: RECOMMENDATION });
    expect(converged.at).toBe('n=4 DEVELOPMENT terminated');
    expect(converged.effects.join('\n')).toMatch(/converged[\s\S]*report ready: 2 agreed, 2 dismissed, 0 unresolved, 0 not evaluated/);
    const reportFile = join(r.stateDir, 'deliberations', `${id}.report.md`);
    expect(converged.brief).toMatchObject({
      decision: RECOMMENDATION.recommendation,
      turnsOn: [expect.any(String), expect.stringMatching(/ — the orchestrator read it there$/)],
      changed: [expect.stringMatching(/^Codex gave up "/)],
      ruledOut: [expect.stringMatching(/ — Codex did not defend it: /)],
    });
    expect(converged.brief.record).toContain(`(ids, versions, evidence): ${reportFile}; decision record: parley://deliberations/${id}/decision.md`);
    const written = await readFile(reportFile, 'utf8');
    expect(written).toMatch(/^# Deliberation report[\s\S]*RECOMMENDATION\s+Yes: a write-through cache[\s\S]*AGREED[\s\S]*DISMISSED[\s\S]*## LEDGER/);
    expect(written).not.toContain('ARBITRATION');
    expect(converged.next.join('\n')).toMatch(/delib_arbitrate/);

    // Arbitration: a fresh reviewer; its per-item reasons and remarks reach the result, the state and the report.
    const arbitrated = await ok('delib_arbitrate', { deliberationId: id, waitSeconds: 55 });
    expect(arbitrated.arbitration).toEqual({ status: 'done', flagged: [{ ref: 'P1.2', why: 'the dismissal came from silence, not from a rebuttal' }], reviewed: 4, remarks: REMARKS });
    expect(arbitrated.effects).toEqual(['arbitration: 1/4 flagged', 'report rebuilt with the arbitration']);
    expect(arbitrated.brief).toBeUndefined();
    // The report file follows the state: rewritten with the arbiter's reasons, the same report as the resource.
    const rebuilt = await readFile(reportFile, 'utf8');
    expect(rebuilt).toContain('the dismissal came from silence, not from a rebuttal');
    const [resource] = (await r.client.readResource({ uri: `parley://deliberations/${id}/report.md` })).contents;
    expect((resource as { text: string }).text).toBe(rebuilt);
    expect(rebuilt).toContain(REMARKS);
    expect(calls).toEqual(['delib_start', 'delib_judge', 'delib_judge', 'delib_judge', 'delib_judge', 'delib_judge', 'delib_arbitrate']);

    // The state file on disk.
    const { value: state } = await r.stateFile(id);
    expect(state).toMatchObject({ n: 4, status: 'terminated', consulteeSessionId: sessionId, counters: { consecutiveFormatFailures: 0, totalFormatFailures: 1 } });
    expect(state.buckets.agreed.map((i: any) => i.pointId).sort()).toEqual(['P1.1', 'P1.4']);
    expect(state.buckets.dismissed.map((i: any) => [i.pointId, i.tag])).toEqual([['P1.3', 'CONCEDED'], ['P1.2', 'UNDEFENDED']]);
    expect(state.challenges.map((c: any) => [c.id, c.status])).toEqual([['C1', 'resolved'], ['C2', 'undefended'], ['C3', 'conceded']]);
    expect(state.arbitration).toMatchObject({ flaggedRatio: 0.25, warning: false, remarks: REMARKS });
    expect(state.arbitration.items).toEqual([
      { ref: 'P1.4', flagged: false, note: 'the quoted line supports it' },
      { ref: 'P1.1', flagged: false },
      { ref: 'P1.3', flagged: false },
      { ref: 'P1.2', flagged: true, note: 'the dismissal came from silence, not from a rebuttal' },
    ]);
    // The state keeps no copy of the report: it marks it built.
    expect(state.report).toEqual({ synthesizedAt: expect.any(String) });
    expect(staleReportItems(DeliberationState.parse(state), rebuilt).count).toBe(0);
    expect(rebuilt).toMatch(/\*\*P1\.4\*\*[\s\S]*src\/orders\.ts:42/);
    expect(rebuilt).toMatch(/\*\*P1\.2\*\*[\s\S]*UNDEFENDED/);
    expect(rebuilt).toMatch(/ended by convergence/);

    // The audit log: every prompt and raw reply, every move with its refused items, the arbitration.
    const audit = await r.audit(id);
    const requests = audit.filter((a) => a.type === 'consult-request');
    const replies = audit.filter((a) => a.type === 'consult-reply');
    expect(requests.map((a) => [a.iteration, a.kind])).toEqual([[1, 'first'], [2, 'next'], [2, 'retry'], [3, 'next'], [4, 'next']]);
    expect(replies.map((a) => a.reply)).toEqual([FIRST_REPLY, PROSE_REPLY, RETRY_REPLY, QUIET_REPLY, QUIET_REPLY]);
    expect(replies.every((a) => a.sessionId === sessionId)).toBe(true);
    expect(String(requests[2]?.prompt)).toMatch(/^\(RETRY #1\) Your last reply could not be used: no numbered points/);
    expect(String(requests[3]?.prompt)).toContain('REMINDER: you did not answer C2');
    const judged = audit.filter((a) => a.type === 'move' && a.move === 'judge');
    expect(judged[0]).toMatchObject({ changed: true, result: { ok: true, refused: [{ ref: 'P1.4', rule: 'evidence-gate' }] } });
    const moves = audit.filter((a) => a.type === 'move' && a.changed !== false).map((a) => a.move);
    expect(moves.filter((m) => m === 'reply_record')).toHaveLength(5);
    expect(moves.filter((m) => m === 'judge')).toHaveLength(5);
    expect(moves).toEqual(expect.arrayContaining(['delib_start', 'arbitration_record']));
    expect(audit.find((a) => a.type === 'arbitration-reply')).toMatchObject({ reply: ARBITER_REPLY, remarks: REMARKS });

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
