import { z } from 'zod';
import { Usage } from '../../../schemas/common.js';
import type { Challenge, DeliberationState, PendingReading, Point } from '../../../schemas/argumentation.js';
import { placeDismissed, placeNotEvaluated, terminate } from '../core/mutations.js';
import { activeFacts, factKey, findPoint, quickTurnsSpent, unsettledChallenges } from '../core/queries.js';
import { consultPrecheck } from './consult-precheck.js';
import type { ReadAnswer, Reading, ReadPoint } from '../reading/reading.js';
import { readReply } from '../reading/reply-reader.js';
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
  const unlabeled = reading.points.filter((p) => p.unlabeledVerification).map((p) => p.number);
  if (unlabeled.length) return `verification claimed without an EVIDENCE/INFERENCE/GUESS label in point(s) ${unlabeled.join(', ')}`;
  return undefined;
}

/** Where a new point goes in the current phase (seed: late new arguments are not evaluated; evidence on existing points is). */
function admit(state: DeliberationState, p: ReadPoint, extendsExisting: boolean): { status: Point['status']; reason?: 'phase-violation' | 'phase-closed'; needsDecisive?: boolean } {
  if (state.phase === null || state.phase === 'CONSTRUCTIVE') return { status: 'pending-triage' };
  if (state.phase === 'DEVELOPMENT') return extendsExisting ? { status: 'pending-triage' } : { status: 'not-evaluated', reason: 'phase-violation' };
  return extendsExisting && p.label === 'EVIDENCE' ? { status: 'pending-triage', needsDecisive: true } : { status: 'not-evaluated', reason: 'phase-closed' };
}

/**
 * P<n>.<the consultee's own number>. A number the reply uses twice gets one above every number in
 * the reply, so no other point loses the id the consultee can match to what it wrote.
 */
function pointIds(state: DeliberationState, numbers: number[]): string[] {
  const taken = new Set(state.points.filter((p) => p.iter === state.n).map((p) => p.number ?? 0));
  let spare = Math.max(0, ...numbers, ...taken) + 1;
  return numbers.map((number) => {
    const k = number > 0 && !taken.has(number) ? number : spare++;
    taken.add(k);
    return `P${state.n}.${k}`;
  });
}


function answerChallenge(next: DeliberationState, c: Challenge, a: ReadAnswer, effects: string[]): void {
  if (a.kind === 'concession') {
    c.status = 'conceded';
    // The words stay with the challenge: the orchestrator may read them as a defense after all.
    c.defense = a.text;
    placeDismissed(next, { pointId: c.pointId, tag: 'CONCEDED', reason: `The consultee conceded ${c.id} in iteration ${next.n}: ${a.text.slice(0, 300)}`, iter: next.n });
    effects.push(`${c.id} conceded: ${c.pointId} -> Dismissed CONCEDED`);
    return;
  }
  c.status = 'defended';
  c.defense = a.text;
  c.defenseIter = next.n;
  c.partial = a.kind === 'partial-concession' || undefined;
  c.narrowedClaim = a.kind === 'partial-concession' ? (a.narrowedClaim ?? a.text) : undefined;
  effects.push(`${c.id} ${a.kind === 'partial-concession' ? 'partly conceded (a defense of a narrowed claim)' : 'defended'}: judge it`);
}

function handleChallenges(next: DeliberationState, reading: Reading, pending: PendingReading[], effects: string[]): void {
  const byRef = new Map<string, ReadAnswer>();
  for (const a of reading.answers) {
    // "Re P2.3" answers the challenge on P2.3 when there is one.
    const onPoint = /^P/.test(a.ref) ? unsettledChallenges(next).find((c) => c.pointId === a.ref) : undefined;
    const ref = onPoint?.id ?? a.ref;
    const c = next.challenges.find((x) => x.id === ref);
    if (c && (c.status === 'open' || c.status === 'dropped') && c.raisedIter < next.n) byRef.set(ref, a);
    else pending.push({ ref: `A${pending.filter((p) => p.kind === 'answer').length + 1}`, kind: 'answer', target: a.ref, text: a.text });
  }
  for (const c of next.challenges) {
    if ((c.status !== 'open' && c.status !== 'dropped') || c.raisedIter >= next.n) continue;
    const a = byRef.get(c.id);
    if (a) answerChallenge(next, c, a, effects);
    else if (c.type === 'SKEPTICAL' && !c.reminderSent) {
      Object.assign(c, { status: 'dropped', reminderSent: true, droppedIter: next.n });
      effects.push(`${c.id} dropped: the next prompt carries a reminder`);
    } else {
      c.status = 'undefended';
      c.droppedIter = next.n;
      const why = c.type === 'REJECT' ? 'its single defense round passed unanswered' : 'it went unanswered after a reminder';
      placeDismissed(next, { pointId: c.pointId, tag: 'UNDEFENDED', reason: `${c.id} ${why} (iter ${next.n}); objection: ${c.objection}`, iter: next.n });
      effects.push(`${c.id} undefended: ${c.pointId} -> Dismissed UNDEFENDED`);
    }
  }
}

/** Quick mode has no challenge ids: objections are answered by point id. */
function handleObjections(next: DeliberationState, reading: Reading, pending: PendingReading[], effects: string[]): void {
  for (const a of reading.answers) {
    const point = findPoint(next, a.ref);
    if (!point || point.status !== 'contested') {
      pending.push({ ref: `A${pending.filter((p) => p.kind === 'answer').length + 1}`, kind: 'answer', target: a.ref, text: a.text });
      continue;
    }
    if (a.kind === 'concession') {
      point.defense = a.text;
      placeDismissed(next, { pointId: point.id, tag: 'CONCEDED', reason: `The consultee conceded the objection in iteration ${next.n}: ${a.text.slice(0, 300)}`, iter: next.n });
      effects.push(`${point.id} conceded -> Dismissed CONCEDED`);
    } else {
      point.defense = a.text;
      if (a.kind === 'partial-concession') point.narrowed = a.narrowedClaim ?? a.text;
      effects.push(`${point.id} ${a.kind === 'partial-concession' ? 'partly conceded (a defense of a narrowed claim)' : 'defended'}: place it (bucket)`);
    }
  }
}

function addPoints(next: DeliberationState, reading: Reading, pending: PendingReading[], effects: string[]): number {
  let admitted = 0;
  const knownPoints = new Set(next.points.map((p) => p.id));
  // Challenges this reply left unanswered, a REJECT already dismissed for it included (a correction reopens it).
  const open = new Set(next.challenges.filter((c) => c.droppedIter === next.n).map((c) => c.id));
  const ids = pointIds(next, reading.points.map((p) => p.number));
  for (const [i, p] of reading.points.entries()) {
    const id = ids[i]!;
    // Only ids that name a point: "P2.1" for the first item of an old answer is the consultee's wording, kept in the text.
    const refs = [...p.pointRefs.filter((r) => knownPoints.has(r) || ids.includes(r)), ...p.challengeMentions];
    const mentionedPoints = p.challengeMentions.map((cid) => next.challenges.find((c) => c.id === cid)?.pointId).filter(Boolean);
    // Seed: evidence on existing points is admitted late; a ledger fact the point cites (F7) is existing material too.
    const citesLedger = (p.factRefs ?? []).some((f) => next.ledger.some((fact) => fact.id === f));
    const extendsExisting = p.pointRefs.some((r) => knownPoints.has(r)) || mentionedPoints.length > 0 || citesLedger;
    const route = admit(next, p, extendsExisting);
    next.points.push({ id, iter: next.n, number: p.number, text: p.text, label: p.label, source: 'consultee', status: route.status, needsDecisive: route.needsDecisive, ...(refs.length ? { refs } : {}) });
    if (route.reason) {
      placeNotEvaluated(next, { ref: id, reason: route.reason, note: `new argument in ${next.phase}`, iter: next.n });
      effects.push(`${id} -> Not Evaluated (${route.reason}: a new argument in ${next.phase})`);
    } else admitted += 1;
    // A point naming a challenge that got no answer may be its defense: the orchestrator says which.
    for (const cid of p.challengeMentions.filter((c) => open.has(c))) pending.push({ ref: id, kind: 'mention', target: cid, text: p.text.slice(0, 300) });
  }
  return admitted;
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
  if (next.mode === 'quick') handleObjections(next, reading, pending, effects);
  else handleChallenges(next, reading, pending, effects);
  const admitted = addPoints(next, reading, pending, effects);
  listMentions(state, next, reading, pending);
  reading.sections.forEach((s, i) => pending.push({ ref: `S${i + 1}`, kind: 'section', title: s.title, text: s.text }));
  reading.questions.forEach((q, i) => pending.push({ ref: `U${i + 1}`, kind: 'question', text: q }));
  if (admitted) effects.push(`${admitted} new point(s) to judge`);
  if (reading.nothingFurther && !admitted) effects.push('the consultee has nothing further');
  if (pending.length) effects.push(`${pending.length} part(s) of the reply need your reading: ${pending.map((p) => p.ref).join(', ')}`);
  next.readings = [...(next.readings ?? []).filter((r) => r.iter !== next.n), { iter: next.n, ...(reading.headline ? { headline: reading.headline } : {}), nothingFurther: reading.nothingFurther, pending }];
  next.scope.newPoints = admitted;
  next.replyRecorded = true;
  return accept(next, effects, ctx);
}

export type { Reading };
