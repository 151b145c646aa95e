import { z } from 'zod';
import { DeliberationState, Framing, Mode } from '../../schemas/argumentation.js';
import { oversized } from './input-limits.js';
import { appendFact } from './mutations.js';
import { accept, type MoveContext, type MoveResult } from './result.js';

/** Who proposes first and the stance, per framing (the seed's table). */
export const FRAMINGS: Record<Framing, { flow: string; ask: string }> = {
  'consultee-proposes': { flow: 'consultee proposes, orchestrator evaluates', ask: 'Propose how to do this. Number each point.' },
  'critique-design': { flow: 'orchestrator proposes, consultee evaluates', ask: 'Critique the design in MATERIAL. Number each flaw or strength.' },
  'devils-advocate': { flow: 'devil\'s advocate / steelman', ask: 'Argue for the position the orchestrator does not hold (see MATERIAL) as strongly as the facts allow.' },
  'fill-gaps': { flow: 'collaborative completion', ask: 'Fill the gaps of the partial solution in MATERIAL. Number each addition.' },
  compare: { flow: 'joint comparative analysis', ask: 'Compare the approaches in MATERIAL point by point; say which wins on what.' },
  'validate-reasoning': { flow: 'verification / sanity check', ask: 'Check the reasoning in MATERIAL step by step; number each step you dispute or confirm.' },
  'user-vs-orchestrator': { flow: 'orchestrator as participant with a position', ask: 'The user wants one thing and the orchestrator thinks another (MATERIAL). Say what is right and why.' },
  'synthesize-stakeholders': { flow: 'multi-perspective arbitration', ask: 'Synthesize the stakeholder views in MATERIAL into one recommendation; number each element.' },
  'red-team': { flow: 'red team: consultee attacks, orchestrator defends', ask: 'Attack the design in MATERIAL: number each attack, strongest first.' },
  'parallel-ideation': { flow: 'parallel ideation, then mutual critique', ask: 'Propose your own solution independently, numbered; the orchestrator\'s proposal (MATERIAL) follows for cross-critique.' },
};

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
    `deliberation started (${parsed.mode}, ${parsed.framing}: ${FRAMINGS[parsed.framing].flow})`,
    ...(parsed.constraints.length ? [`user constraints in the ledger: ${state.ledger.map((f) => f.id).join(', ')}`] : []),
  ];
  return accept(DeliberationState.parse(state), effects, ctx);
}
