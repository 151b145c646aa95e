/**
 * Argumentation protocol engine (seed 001): pure functions of (state, move) -> state | refusal.
 * State S = ledger, challenges, points, buckets (+ Not Evaluated, Surfaced Questions), phase, n,
 * mode, consultee session id, failure counters, position history and how each reply was read
 * (schemas/argumentation.ts). Every rule a machine can check lives here: provenance (ledger-moves),
 * triage and the articulation, evidence-gate and position-stability rules (point-moves, gates),
 * defense windows (reply-record, challenge-moves), bucket rules (bucket-moves), the phase function,
 * extended CONSTRUCTIVE, convergence and the cap (iteration), stress test and arbitration
 * (stress-test, review-moves), coverage and the report (synthesize). The orchestrator's moves come
 * as one judgment per iteration (judgment), applied item by item through those same rules. A
 * refusal names the rule and the legal next moves. Moves never read a clock: time comes in through
 * MoveContext; ids are F1.., P<n>.<consultee's number>, C1.., Q1...
 * Folders: core/ (queries, mutations), rules/ (what is legal now), reading/ (what a reply says),
 * report/ (the record rendered), moves/, prompts/, views/ (see CONTRIBUTING.md).
 * The MCP tools add `deliberationId`, persist the returned state, and never restate a rule.
 */
import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { overCapacity } from './moves/capacity.js';
import { oversized } from './core/input-limits.js';
import { JudgeInput, judge } from './moves/judgment.js';
import { ReplyRecordInput, replyRecord } from './moves/reply-record.js';
import type { MoveContext, MoveResult } from './moves/result.js';
import { ArbitrationRecordInput, arbitrationRecord } from './moves/review-moves.js';
import { SynthesizeInput, synthesize as synthesizeMove } from './moves/synthesize.js';

export type { MoveContext, MoveResult, Refusal, ItemRefusal } from './moves/result.js';
export { startDeliberation, StartInput } from './moves/start.js';
export { FRAMINGS } from './core/framings.js';
export { nextLegalMoves, nextLines, type LegalMove } from './rules/legal-moves.js';
export { statusView } from './views/status-view.js';
export { pointActions, challengeActions } from './rules/legal-actions.js';
export { buildConsulteePrompt, nextConsulteePrompt, promptKind, resentPrompt, type PromptKind } from './prompts/consultee-prompts.js';
export { buildArbitrationPrompt } from './prompts/arbiter-prompt.js';
export { parseArbitrationReply } from './reading/arbitration-reply.js';
export { arbitrationPrecheck } from './moves/review-moves.js';
export { arbitrationRefs } from './rules/arbitration-conditions.js';
export { consultPrecheck } from './moves/consult-precheck.js';
export { readReply } from './reading/reply-reader.js';
export type { Reading, ReadPoint, ReadAnswer } from './reading/reading.js';
export { phaseFor, ITERATION_CAP, QUICK_ITERATION_CAP } from './core/queries.js';
export { placeCounts } from './moves/synthesize.js';
export { deliberationMarkdown, type MarkdownOptions } from './report/report-markdown.js';
export { decisionRecordMarkdown } from './report/decision-record.js';
export { staleReportItems, type StaleReport } from './report/stale-check.js';
export { answerBrief, type AnswerBrief } from './views/answer-brief.js';
export { challengeTimeline, phaseOf, type ChallengeEvent, type ChallengeSpan } from './report/timeline.js';
export { JudgeInput, PointJudgment, ChallengeJudgment } from './moves/judgment.js';
export { SynthesizeInput, ReplyRecordInput, ArbitrationRecordInput };

export interface Move<I> {
  name: string;
  input: z.ZodType<I>;
  apply(state: DeliberationState, input: I, ctx: MoveContext): MoveResult;
}

function move<S extends z.ZodType>(name: string, input: S, apply: (s: DeliberationState, i: z.output<S>, c: MoveContext) => MoveResult): Move<z.output<S>> {
  return { name, input: input as unknown as z.ZodType<z.output<S>>, apply };
}

/** Every move after start. The server reaches them through its tools (delib_consult records replies, delib_judge judges...). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const moves: { [name: string]: Move<any> } = {
  reply_record: move('reply_record', ReplyRecordInput, replyRecord),
  judge: move('judge', JudgeInput, judge),
  synthesize: move('synthesize', SynthesizeInput.partial(), synthesizeMove),
  arbitration_record: move('arbitration_record', ArbitrationRecordInput, arbitrationRecord),
};

/** Synthesize as a plain function; on success `state.report` marks the report built (answerBrief, deliberationMarkdown render it). */
export function synthesize(state: DeliberationState, ctx: MoveContext, input: Partial<SynthesizeInput> = {}): MoveResult {
  return synthesizeMove(state, input, ctx);
}

/**
 * Parses the input with the move's schema, then applies it; bad input becomes a refusal, never a throw.
 * Every move after start comes through here, so the deliberation's size limit (capacity.ts) is checked once, here.
 */
export function applyMove(state: DeliberationState, name: string, input: unknown, ctx: MoveContext): MoveResult {
  const m = moves[name];
  if (!m) return { ok: false, refusal: { rule: 'unknown-move', message: `No move ${name}; moves: ${Object.keys(moves).join(', ')}.`, legalMoves: [] } };
  const tooBig = oversized(input);
  if (tooBig) return { ok: false, refusal: { rule: 'oversized-input', message: `${name}: ${tooBig}.`, legalMoves: [] } };
  const parsed = m.input.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, refusal: { rule: 'invalid-input', message: `${name}: ${issue?.path.join('.') || 'input'} ${issue?.message ?? 'is invalid'}.`, legalMoves: [] } };
  }
  const result = m.apply(state, parsed.data, ctx);
  return (result.ok && overCapacity(state, result.state)) || result;
}
export { replyView } from './views/reply-view.js';
export { contradictingEffects, effectsView } from './views/effects-view.js';
