/**
 * Argumentation protocol engine (seed 001): pure functions of (state, move) -> state | refusal.
 * State S = ledger, challenges, points, buckets (+ Not Evaluated, Surfaced Questions), phase, n,
 * mode, consultee session id, failure counters and position history (schemas/argumentation.ts).
 * Every rule a machine can check lives here: provenance (ledger-moves), triage and the articulation,
 * evidence-gate and position-stability rules (point-moves, gates), defense windows (reply-record,
 * challenge-moves), bucket rules (bucket-moves), the phase function, extended CONSTRUCTIVE,
 * convergence and the cap (iteration), stress test and arbitration (review-moves), coverage and
 * the report (synthesize). A refusal names the rule and the legal next moves. Prompts for the
 * consultee (prompts) and the reply parser (reply-parser) are here too. Moves never read a clock:
 * time comes in through MoveContext; ids are F1.., P<n>.<k>, C1.., Q1...
 * The MCP tools add `deliberationId`, persist the returned state, and never restate a rule.
 */
import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { BucketAssignInput, bucketAssign } from './bucket-moves.js';
import { ChallengeResolveInput, challengeResolve } from './challenge-moves.js';
import { IterationAdvanceInput, iterationAdvance } from './iteration.js';
import { LedgerAddInput, LedgerSupersedeInput, LedgerUpdateInput, LedgerVerifyInput, ledgerUpdate } from './ledger-moves.js';
import { PointEvaluateInput, PointTriageInput, pointEvaluate, pointTriage } from './point-moves.js';
import { ReplyRecordInput, replyRecord } from './reply-record.js';
import type { MoveContext, MoveResult } from './result.js';
import { ArbitrationRecordInput, StressTestRecordInput, arbitrationRecord, stressTestRecord } from './review-moves.js';
import { synthesize as synthesizeMove } from './synthesize.js';

export type { MoveContext, MoveResult, Refusal } from './result.js';
export { startDeliberation, StartInput, FRAMINGS } from './start.js';
export { nextLegalMoves, statusView, type LegalMove } from './legal-moves.js';
export { buildConsulteePrompt, buildArbitrationPrompt, type PromptKind } from './prompts.js';
export { parseConsulteeReply, type ParsedReply, type ParsedPoint } from './reply-parser.js';
export { phaseFor, ITERATION_CAP, QUICK_ITERATION_CAP } from './queries.js';
export { placeCounts } from './synthesize.js';
export {
  BucketAssignInput,
  ChallengeResolveInput,
  IterationAdvanceInput,
  LedgerAddInput,
  LedgerSupersedeInput,
  LedgerVerifyInput,
  LedgerUpdateInput,
  PointEvaluateInput,
  PointTriageInput,
  ReplyRecordInput,
  StressTestRecordInput,
  ArbitrationRecordInput,
};

export interface Move<I> {
  name: string;
  summary: string;
  input: z.ZodType<I>;
  apply(state: DeliberationState, input: I, ctx: MoveContext): MoveResult;
}

function move<S extends z.ZodType>(name: string, summary: string, input: S, apply: (s: DeliberationState, i: z.output<S>, c: MoveContext) => MoveResult): Move<z.output<S>> {
  return { name, summary, input: input as unknown as z.ZodType<z.output<S>>, apply };
}

export const SynthesizeInput = z.object({});

/** Every move after start, keyed by its MCP tool name. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const moves: { [name: string]: Move<any> } = {
  ledger_update: move('ledger_update', 'Ledger: add a fact with its provenance tag, supersede an active one, or verify a codex-unverified one (confirmed, partial splits it, refuted)', LedgerUpdateInput, ledgerUpdate),
  reply_record: move('reply_record', "Record the consultee's reply: parse, route by phase, apply defense windows", ReplyRecordInput, replyRecord),
  point_triage: move('point_triage', 'Triage a new point: in-scope, out-of-scope or anchor-shift', PointTriageInput, pointTriage),
  point_evaluate: move('point_evaluate', 'Classify a point AGREE | SKEPTICAL | REJECT | ILL-FORMED', PointEvaluateInput, pointEvaluate),
  challenge_resolve: move('challenge_resolve', 'Judge a defense (accepted, rebutted, rejected) or classify a deadlock', ChallengeResolveInput, challengeResolve),
  bucket_assign: move('bucket_assign', 'Place an evaluated point in Agreed, Dismissed or Unresolved', BucketAssignInput, bucketAssign),
  iteration_advance: move('iteration_advance', 'Close the iteration: phase function, extension, termination', IterationAdvanceInput, iterationAdvance),
  stress_test_record: move('stress_test_record', 'Record the stress test (standard mode, CONSTRUCTIVE)', StressTestRecordInput, stressTestRecord),
  arbitration_record: move('arbitration_record', "Record an arbiter's per-item flags (standard mode)", ArbitrationRecordInput, arbitrationRecord),
  delib_synthesize: move('delib_synthesize', 'Check coverage and build the final report (JSON + Markdown)', SynthesizeInput, synthesizeMove),
};

/** Synthesize as a plain function; on success `state.report` holds {json, markdown}. */
export function synthesize(state: DeliberationState, ctx: MoveContext): MoveResult {
  return synthesizeMove(state, {}, ctx);
}

/** Parses the input with the move's schema, then applies it; bad input becomes a refusal, never a throw. */
export function applyMove(state: DeliberationState, name: string, input: unknown, ctx: MoveContext): MoveResult {
  const m = moves[name];
  if (!m) return { ok: false, refusal: { rule: 'unknown-move', message: `No move ${name}; moves: ${Object.keys(moves).join(', ')}.`, legalMoves: [] } };
  const parsed = m.input.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, refusal: { rule: 'invalid-input', message: `${name}: ${issue?.path.join('.') || 'input'} ${issue?.message ?? 'is invalid'}.`, legalMoves: [name] } };
  }
  return m.apply(state, parsed.data, ctx);
}
