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
 * The MCP tools add `deliberationId`, persist the returned state, and never restate a rule.
 */
import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { overCapacity } from './capacity.js';
import { oversized } from './input-limits.js';
import { JudgeInput, judge } from './judgment.js';
import { ReplyRecordInput, replyRecord } from './reply-record.js';
import type { MoveContext, MoveResult } from './result.js';
import { ArbitrationRecordInput, arbitrationRecord } from './review-moves.js';
import { SynthesizeInput, synthesize as synthesizeMove } from './synthesize.js';

export type { MoveContext, MoveResult, Refusal, ItemRefusal } from './result.js';
export { startDeliberation, StartInput, FRAMINGS } from './start.js';
export { nextLegalMoves, nextLines, statusView, type LegalMove } from './legal-moves.js';
export { pointActions, challengeActions } from './legal-actions.js';
export { buildConsulteePrompt, buildArbitrationPrompt, nextConsulteePrompt, promptKind, type PromptKind } from './prompts.js';
export { parseArbitrationReply } from './arbitration-reply.js';
export { arbitrationPrecheck, arbitrationRefs } from './review-moves.js';
export { consultPrecheck } from './consult-precheck.js';
export { readReply } from './reply-reader.js';
export type { Reading, ReadPoint, ReadAnswer } from './reading.js';
export { phaseFor, ITERATION_CAP, QUICK_ITERATION_CAP } from './queries.js';
export { placeCounts } from './synthesize.js';
export { deliberationMarkdown, type MarkdownOptions } from './report-markdown.js';
export { challengeTimeline, phaseOf, type ChallengeEvent, type ChallengeSpan } from './timeline.js';
export { JudgeInput, PointJudgment, ChallengeJudgment } from './judgment.js';
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

/** Synthesize as a plain function; on success `state.report` holds {json, markdown}. */
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
export { replyView } from './reply-view.js';
