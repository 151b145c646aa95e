import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { surfaceQuestion } from './mutations.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const StressTestRecordInput = z.object({
  objection: z.string().min(1),
  severity: z.enum(['fatal', 'unresolved', 'mitigable']),
  response: z.string().min(1),
});
export type StressTestRecordInput = z.infer<typeof StressTestRecordInput>;

export const ArbitrationRecordInput = z.object({
  items: z.array(z.object({ ref: z.string(), flagged: z.boolean(), note: z.string().optional() })),
});
export type ArbitrationRecordInput = z.infer<typeof ArbitrationRecordInput>;

function standardOnly(state: DeliberationState, what: string): MoveResult | undefined {
  if (state.mode !== 'standard') return refuse(state, `mode-${state.mode}`, `${state.mode} mode has no ${what} (standard mode only).`);
  return undefined;
}

export function stressTestRecord(state: DeliberationState, input: StressTestRecordInput, ctx: MoveContext): MoveResult {
  const guard = requireActive(state) ?? standardOnly(state, 'stress test');
  if (guard) return guard;
  if (state.phase !== 'CONSTRUCTIVE') return refuse(state, 'phase-closed', 'The stress test runs inside CONSTRUCTIVE only.');
  if (state.stressTest.objection) return refuse(state, 'stress-test-done', 'One objection, one response: the stress test already ran.');
  const next = draft(state);
  next.stressTest = { required: next.stressTest.required, ...input, iter: next.n };
  const effects = [`stress test recorded (${input.severity})`];
  if (input.severity !== 'mitigable') effects.push(`${surfaceQuestion(next, `Stress test found a ${input.severity} objection: ${input.objection}`)} surfaced`);
  return accept(next, effects, ctx);
}

/** The reviewer's per-item flags; flags only lower confidence, >= 50% flagged adds a warning. */
export function arbitrationRecord(state: DeliberationState, input: ArbitrationRecordInput, ctx: MoveContext): MoveResult {
  const guard = standardOnly(state, 'arbitration');
  if (guard) return guard;
  if (state.status !== 'terminated') return refuse(state, 'arbitrate-after-termination', 'Arbitration reviews the final buckets: terminate the deliberation first.');
  const items = [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].map((i) => i.pointId);
  const given = input.items.map((i) => i.ref);
  const missing = items.filter((id) => !given.includes(id));
  const extra = given.filter((id) => !items.includes(id));
  if (missing.length || extra.length || new Set(given).size !== given.length) {
    return refuse(state, 'arbitration-coverage', `Give exactly one flag per bucket item (missing: ${missing.join(', ') || 'none'}; unknown: ${extra.join(', ') || 'none'}).`);
  }
  if (!items.length) return refuse(state, 'arbitration-coverage', 'No bucket items to arbitrate.');
  const next = draft(state);
  const flagged = input.items.filter((i) => i.flagged).length;
  const flaggedRatio = flagged / items.length;
  next.arbitration = { items: input.items, flaggedRatio, warning: flaggedRatio >= 0.5, recordedAt: ctx.now };
  return accept(next, [`arbitration: ${flagged}/${items.length} flagged${flaggedRatio >= 0.5 ? ': the result carries a warning' : ''}`], ctx);
}
