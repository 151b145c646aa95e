import { z } from 'zod';
import { Usage } from '../../../schemas/common.js';
import type { DeliberationState, PendingReading } from '../../../schemas/argumentation.js';
import { terminate } from '../core/mutations.js';
import { activeFacts, factKey, quickTurnsSpent } from '../core/queries.js';
import { consultPrecheck } from './consult-precheck.js';
import { applyHeldSynthesis } from './held-synthesis.js';
import type { Reading } from '../reading/reading.js';
import { readReply } from '../reading/reply-reader.js';
import { recordChallengeAnswers, recordObjectionAnswers, type AnswerAsk } from './record-answers.js';
import { recordPoints } from './record-points.js';
import { accept, draft, type MoveContext, type MoveResult } from './result.js';

export const ReplyRecordInput = z.object({
  text: z.string().describe('verbatim'),
  sessionId: z.string().optional(),
  cumulativeUsage: Usage.optional(),
  formatFailure: z.string().optional().describe('declare one the reader cannot see'),
});
export type ReplyRecordInput = z.infer<typeof ReplyRecordInput>;

/** A reply is usable when it has points, answers, or says there is nothing further; claimed checks need a label. */
export function detectFormatFailure(reading: Reading, quick = false): string | undefined {
  if (!reading.points.length && !reading.answers.length && !reading.nothingFurther) {
    const unnumbered = reading.sections.length ? ` (${reading.sections.length} unnumbered section(s): number each point)` : '';
    return `no numbered points and no answers to ${quick ? 'objections' : 'challenges'}${unnumbered}`;
  }
  // An item inside an answer is judged as a point, but the answer as a whole is what must be usable.
  const unlabeled = reading.points.filter((p) => p.unlabeledVerification && !p.partOf).map((p) => p.number);
  if (unlabeled.length) return `verification claimed without an EVIDENCE/INFERENCE/GUESS label in point(s) ${unlabeled.join(', ')}`;
  return undefined;
}

/**
 * Every id this reply was due to answer (an open challenge; in quick mode a contested point) that it names
 * somewhere without answering it is listed with the words naming it: the orchestrator decides what they are.
 */
function listMentions(state: DeliberationState, next: DeliberationState, reading: Reading, pending: PendingReading[]): void {
  const quick = next.mode === 'quick';
  const unanswered = quick
    ? state.points.filter((p) => p.status === 'contested' && p.iter < next.n && !reading.answers.some((a) => a.ref === p.id)).map((p) => p.id)
    : next.challenges.filter((c) => c.droppedIter === next.n && c.raisedIter < next.n).map((c) => c.id);
  for (const id of unanswered) {
    if (pending.some((p) => p.target === id && (p.kind === 'mention' || p.kind === 'answer'))) continue;
    const said = reading.mentions.find((m) => m.ref === id);
    if (said) pending.push({ ref: `M${pending.filter((p) => /^M\d+$/.test(p.ref)).length + 1}`, kind: 'mention', target: id, text: said.text });
    if (!quick) continue;
    for (const p of next.points.filter((x) => x.iter === next.n && x.refs?.includes(id))) pending.push({ ref: p.id, kind: 'mention', target: id, text: p.text.slice(0, 300) });
  }
}

export function replyRecord(state: DeliberationState, input: ReplyRecordInput, ctx: MoveContext): MoveResult {
  const refused = consultPrecheck(state);
  if (refused) return refused;
  const reading = readReply(input.text, { quick: state.mode === 'quick', iteration: state.n });
  const next = draft(state);
  if (input.sessionId) next.consulteeSessionId = input.sessionId;
  if (input.cumulativeUsage) next.consulteeCumulativeUsage = input.cumulativeUsage;
  // What the prompt showed of the ledger is now seen, whatever the reply (a retry resends no fact).
  next.consulteeSeen = activeFacts(state).map(factKey).concat(state.ledger.filter((f) => f.supersededBy || f.refuted).map(factKey));
  const failure = input.formatFailure ?? detectFormatFailure(reading, state.mode === 'quick');
  if (failure) {
    next.counters.consecutiveFormatFailures += 1;
    next.counters.totalFormatFailures += 1;
    next.counters.lastFailure = failure;
    if (next.counters.consecutiveFormatFailures >= 2) {
      terminate(next, 'early-exit-quality', `two consecutive format failures (last: ${failure})`);
      return accept(next, [`format failure: ${failure}`, 'second consecutive format failure: early exit (quality)'], ctx);
    }
    const after = quickTurnsSpent(next) ? 'quick mode has no turn left: judge with what you have; phase.advance ends the deliberation' : 'the retry prompt says why';
    return accept(next, [`format failure: ${failure}; n stays ${next.n}, no defense window used; ${after}`], ctx);
  }
  next.counters.consecutiveFormatFailures = 0;
  const effects: string[] = [`reply recorded for iteration ${next.n}`];
  const pending: PendingReading[] = [];
  const asks: AnswerAsk[] = [];
  const owners = next.mode === 'quick' ? recordObjectionAnswers(next, reading, pending, effects, asks) : recordChallengeAnswers(next, reading, pending, effects, asks);
  const { admitted } = recordPoints(next, reading, owners, pending, effects);
  // An answer whose point the same reply replaced asks for nothing: the replacement's line says what to judge.
  effects.push(...asks.filter((ask) => next.points.find((p) => p.id === ask.point)?.status !== 'superseded').map((ask) => ask.line));
  listMentions(state, next, reading, pending);
  reading.sections.forEach((s) => pending.push({ ref: `S${pending.filter((x) => x.kind === 'section').length + 1}`, kind: 'section', title: s.title, text: s.text }));
  reading.questions.forEach((q, i) => pending.push({ ref: `U${i + 1}`, kind: 'question', text: q }));
  if (admitted) effects.push(`${admitted} new point(s) to judge`);
  if (reading.nothingFurther && !admitted) effects.push('the consultee has nothing further');
  if (pending.length) effects.push(`${pending.length} part(s) of the reply need your reading: ${pending.map((p) => p.ref).join(', ')}`);
  const numbers = reading.numbersNotPoints.length ? { numbersNotPoints: reading.numbersNotPoints } : {};
  next.readings = [...(next.readings ?? []).filter((r) => r.iter !== next.n), { iter: next.n, ...(reading.headline ? { headline: reading.headline } : {}), nothingFurther: reading.nothingFurther, pending, ...numbers }];
  next.scope.newPoints = admitted;
  next.replyRecorded = true;
  return applyHeldSynthesis(next, effects, { nothingFurther: reading.nothingFurther, newPoints: admitted, toRead: pending.length }, ctx);
}

export type { Reading };
