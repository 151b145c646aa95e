import { z } from 'zod';
import { DeliberationState, Framing, Mode } from '../../../schemas/argumentation.js';
import { oversized } from '../core/input-limits.js';
import { appendFact } from '../core/mutations.js';
import { accept, type MoveContext, type MoveResult } from './result.js';

export const StartInput = z.object({
  question: z.string().min(1).describe('verbatim'),
  mode: Mode.default('minimal'),
  framing: Framing.default('consultee-proposes'),
  constraints: z.array(z.string().min(1)).default([]).describe('become user facts'),
  material: z.string().optional().describe('what the framing refers to'),
});
export type StartInput = z.input<typeof StartInput>;

export function startDeliberation(input: StartInput, ctx: MoveContext & { id: string }): MoveResult {
  const tooBig = oversized(input);
  if (tooBig) return { ok: false, refusal: { rule: 'oversized-input', message: `delib_start: ${tooBig}.`, legalMoves: [] } };
  const parsed = StartInput.parse(input);
  const state: DeliberationState = {
    schemaVersion: 1,
    id: ctx.id,
    mode: parsed.mode,
    framing: parsed.framing,
    question: parsed.question,
    material: parsed.material,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    n: 1,
    phase: parsed.mode === 'quick' ? null : 'CONSTRUCTIVE',
    extendedConstructive: false,
    replyRecorded: false,
    ledger: [],
    challenges: [],
    points: [],
    buckets: { agreed: [], dismissed: [], unresolved: [] },
    notEvaluated: [],
    surfacedQuestions: [],
    positions: [],
    counters: { consecutiveFormatFailures: 0, totalFormatFailures: 0 },
    scope: { newPoints: 0, disputedAtLastAdvance: [] },
    stressTest: { required: false },
    status: 'active',
  };
  for (const text of parsed.constraints) appendFact(state, { text, tag: 'user' });
  const effects = [
    `deliberation started (${parsed.mode}, ${parsed.framing})`,
    ...(parsed.constraints.length ? [`user constraints in the ledger: ${state.ledger.map((f) => f.id).join(', ')}`] : []),
  ];
  return accept(DeliberationState.parse(state), effects, ctx);
}
