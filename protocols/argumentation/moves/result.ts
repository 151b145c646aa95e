import type { DeliberationState } from '../../../schemas/argumentation.js';
import { nextLegalMoves } from '../rules/legal-moves.js';

export interface Refusal {
  /** Stable kebab id of the rule broken, e.g. "evidence-gate". */
  rule: string;
  /** One actionable sentence. */
  message: string;
  /** Move names that are legal now. */
  legalMoves: string[];
}

/** One refused item of a batch (delib_judge): where it was, the rule, and what that item may do instead. */
export interface ItemRefusal {
  /** Where in the input, e.g. "points[2]". */
  item: string;
  ref?: string;
  rule: string;
  message: string;
  /** Actions legal now for that ref (e.g. "verdict", "bucket"), or the moves legal now. */
  legal: string[];
}

export type MoveResult =
  | { ok: true; state: DeliberationState; effects: string[]; refused?: ItemRefusal[] }
  | { ok: false; refusal: Refusal };

export interface MoveContext {
  /** ISO time, injected so that moves stay pure. */
  now: string;
}

export function accept(state: DeliberationState, effects: string[], ctx: MoveContext): MoveResult {
  state.updatedAt = ctx.now;
  return { ok: true, state, effects };
}

export function refuse(state: DeliberationState, rule: string, message: string): MoveResult {
  return { ok: false, refusal: { rule, message, legalMoves: nextLegalMoves(state).map((m) => m.move) } };
}

/** Moves never mutate their input: they work on a deep copy. */
export function draft(state: DeliberationState): DeliberationState {
  return structuredClone(state);
}

/** Shared guards; each returns a refusal or undefined. */
export function requireActive(state: DeliberationState): MoveResult | undefined {
  if (state.status !== 'active') {
    return refuse(state, 'deliberation-terminated', `The deliberation terminated (${state.termination?.reason ?? 'unknown'}); what is left: ${nextLegalMoves(state).map((m) => m.why).join('; ') || 'nothing'}.`);
  }
  return undefined;
}

export function requireNotQuick(state: DeliberationState, what: string): MoveResult | undefined {
  if (state.mode === 'quick') {
    return refuse(state, 'quick-mode', `Quick mode has no ${what}; objections go by point (verdict, then bucket).`);
  }
  return undefined;
}
