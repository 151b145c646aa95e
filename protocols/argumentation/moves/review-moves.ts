import { z } from 'zod';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { surfaceQuestion } from '../core/mutations.js';
import { stressTestBlocker, stressTestClosed } from '../rules/stress-test.js';
import { arbitrationBlocker, arbitrationRefs } from '../rules/arbitration-conditions.js';
import { accept, draft, refuse, requireActive, type MoveContext, type MoveResult } from './result.js';

export const StressTestRecordInput = z.object({
  objection: z.string().min(1),
  severity: z.enum(['fatal', 'unresolved', 'mitigable', 'none']).describe('none: Codex offered no objection'),
  response: z.string().min(1),
});
export type StressTestRecordInput = z.infer<typeof StressTestRecordInput>;

export const ArbitrationRecordInput = z.object({
  items: z.array(z.object({ ref: z.string(), flagged: z.boolean(), note: z.string().optional() })),
  remarks: z.string().optional().describe("the reviewer's general remarks"),
  reviewer: z.string().optional(),
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
  if (!state.stressTest.required) {
    const blocker = stressTestBlocker({ ...state, stressTest: { ...state.stressTest, warranted: true } });
    return refuse(state, 'stress-test-not-asked', `Record the stress test once a prompt asked for it: warrant it with phase.stressTestWarranted${blocker ? ` (it cannot run yet: ${blocker})` : ''}.`);
  }
  if (state.stressTest.objection) return refuse(state, 'stress-test-done', 'One objection, one response: the stress test already ran.');
  const next = draft(state);
  next.stressTest = { required: next.stressTest.required, ...input, iter: next.n };
  const effects = [`stress test recorded (${input.severity})`];
  if (input.severity === 'fatal' || input.severity === 'unresolved') effects.push(`${surfaceQuestion(next, `Stress test found a ${input.severity} objection: ${input.objection}`)} surfaced`);
  return accept(next, effects, ctx);
}

/** The orchestrator says the stakes warrant a stress test; it becomes required as soon as it may run. */
export function warrantStressTest(state: DeliberationState, ctx: MoveContext): MoveResult {
  const guard = requireActive(state) ?? standardOnly(state, 'stress test');
  if (guard) return guard;
  const next = draft(state);
  next.stressTest.warranted = true;
  const closed = stressTestClosed(next);
  const blocker = stressTestBlocker(next);
  // CONSTRUCTIVE's last prompt is still to be sent (its reply is not in): that prompt asks for it, no advance comes first.
  if (!closed && !blocker && next.extendedConstructive && !next.replyRecorded) {
    next.stressTest.required = true;
    return accept(next, ['stress test required: the next prompt asks for the strongest objection'], ctx);
  }
  const said = closed ? `stress test warranted, but it cannot run: ${closed}` : blocker ? `stress test warranted; not yet: ${blocker}` : 'stress test warranted: required at the advance';
  return accept(next, [said], ctx);
}

/** Whether arbitration may be recorded now, whatever the flags: checked before any model call is spent. */
export function arbitrationPrecheck(state: DeliberationState): MoveResult | undefined {
  const blocked = arbitrationBlocker(state);
  return blocked ? refuse(state, blocked.rule, blocked.message) : undefined;
}

/** The reviewer's per-item flags; flags only lower confidence, >= 50% flagged adds a warning. */
export function arbitrationRecord(state: DeliberationState, input: ArbitrationRecordInput, ctx: MoveContext): MoveResult {
  const guard = arbitrationPrecheck(state);
  if (guard) return guard;
  const items = arbitrationRefs(state);
  const given = input.items.map((i) => i.ref);
  const missing = items.filter((id) => !given.includes(id));
  const extra = given.filter((id) => !items.includes(id));
  if (missing.length || extra.length || new Set(given).size !== given.length) {
    return refuse(state, 'arbitration-coverage', `Give exactly one flag per bucket item (missing: ${missing.join(', ') || 'none'}; unknown: ${extra.join(', ') || 'none'}).`);
  }
  const next = draft(state);
  const flagged = input.items.filter((i) => i.flagged).length;
  const flaggedRatio = flagged / items.length;
  next.arbitration = { items: input.items, flaggedRatio, warning: flaggedRatio >= 0.5, recordedAt: ctx.now, ...(input.remarks ? { remarks: input.remarks } : {}), ...(input.reviewer ? { reviewer: input.reviewer } : {}) };
  const effects = [`arbitration: ${flagged}/${items.length} flagged${flaggedRatio >= 0.5 ? ': the result carries a warning' : ''}`];
  // The report is rendered from the state: one built before the arbitration now carries the flags.
  if (next.report) effects.push('report rebuilt with the arbitration');
  return accept(next, effects, ctx);
}
