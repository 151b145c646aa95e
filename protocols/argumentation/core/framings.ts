import type { Framing } from '../../../schemas/argumentation.js';

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
