import type { Framing } from '../../../schemas/argumentation.js';

/**
 * Who proposes first and the stance, per framing (the seed's table). `quick` is the request of a quick
 * exchange: the same stance, asking only for the points that decide the question.
 */
export const FRAMINGS: Record<Framing, { flow: string; ask: string; quick: string }> = {
  'consultee-proposes': { flow: 'consultee proposes, orchestrator evaluates', ask: 'Propose how to do this. Number each point.', quick: 'Say how you would do this: only the points that decide it, most important first.' },
  'critique-design': { flow: 'orchestrator proposes, consultee evaluates', ask: 'Critique the design in MATERIAL. Number each flaw or strength.', quick: 'Name the flaws of the design in MATERIAL that matter most, worst first.' },
  'devils-advocate': { flow: 'devil\'s advocate / steelman', ask: 'Argue for the position the orchestrator does not hold (see MATERIAL) as strongly as the facts allow.', quick: 'Make the strongest case for the position the orchestrator does not hold (see MATERIAL): its best arguments only.' },
  'fill-gaps': { flow: 'collaborative completion', ask: 'Fill the gaps of the partial solution in MATERIAL. Number each addition.', quick: 'Fill the gaps of the partial solution in MATERIAL: one point per gap.' },
  compare: { flow: 'joint comparative analysis', ask: 'Compare the approaches in MATERIAL point by point; say which wins on what.', quick: 'Say which approach in MATERIAL you would pick: your verdict first, on a line of its own (not an item), then only the points that decide it.' },
  'validate-reasoning': { flow: 'verification / sanity check', ask: 'Check the reasoning in MATERIAL step by step; number each step you dispute or confirm.', quick: 'Check the reasoning in MATERIAL: one point per step you dispute; say in one point whether the rest holds.' },
  'user-vs-orchestrator': { flow: 'orchestrator as participant with a position', ask: 'The user wants one thing and the orchestrator thinks another (MATERIAL). Say what is right and why.', quick: 'The user wants one thing and the orchestrator thinks another (MATERIAL): say which is right, with the points that decide it.' },
  'synthesize-stakeholders': { flow: 'multi-perspective arbitration', ask: 'Synthesize the stakeholder views in MATERIAL into one recommendation; number each element.', quick: 'Give one recommendation that reconciles the views in MATERIAL: its deciding elements only.' },
  'red-team': { flow: 'red team: consultee attacks, orchestrator defends', ask: 'Attack the design in MATERIAL: number each attack, strongest first.', quick: 'Attack the design in MATERIAL: the few strongest attacks, strongest first.' },
  'parallel-ideation': { flow: 'parallel ideation, then mutual critique', ask: 'Propose your own solution independently, numbered; the orchestrator\'s proposal (MATERIAL) follows for cross-critique.', quick: 'Propose your own solution independently, deciding points only; the orchestrator\'s proposal (MATERIAL) follows for cross-critique.' },
};
