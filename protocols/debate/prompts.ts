import type { DebateTurn, RoleVisibility, Stance } from '../../schemas/debate.js';
import type { DebateAgent } from './agents.js';
import type { Tone } from './pid.js';
import { isValidTurn } from './round-measures.js';

export const TONE_TEXT: Record<Tone, string> = {
  adversarial:
    'Tone for this round: adversarial. Test every argument hard, press on weak reasoning and missing evidence, and do not move without strong grounds.',
  balanced:
    'Tone for this round: balanced. Challenge what is weak and accept what is well supported, giving each argument the weight it deserves.',
  collaborative:
    'Tone for this round: collaborative. Look for common ground, build on sound points and concede plainly where another agent is right.',
};

/** What each stance means; the system prompt and the README say the same. */
export const STANCE_TEXT: Record<Stance, string> = {
  rebut: 'you dispute the claim',
  qualify: 'you accept its conclusion but dispute a part of it (a figure, a premise, its scope)',
  support: 'you agree with it and add weight to it',
  concede: 'you accept an opposing claim as right',
  extend: 'you build on it and take it further',
};

/** How an agent must answer in a distribution debate (DebateConfig.answerKind = 'distribution'). */
export const DISTRIBUTION_INSTRUCTIONS = [
  'Answer with a distribution, not a single option: in "distribution", give each option you hold a non-negative weight (e.g. a portfolio\'s weights); options you leave out get 0.',
  'Weights may be probabilities, percentages or raw amounts: they are scaled to sum to 1. At least one must be positive; a negative or all-zero distribution makes your response invalid for the round.',
  'Your answer is your whole distribution; the option with the largest weight is your top holding ("answer" is not needed).',
];

export interface PromptContext {
  question: string;
  options?: string[];
  /** `distribution`: the agents answer with an allocation (DISTRIBUTION_INSTRUCTIONS). */
  answerKind?: 'option' | 'distribution';
  rounds: number;
  agents: DebateAgent[];
  /** Who sees the roles the agents were given (DebateConfig.roleVisibility); default `all`. */
  roleVisibility?: RoleVisibility;
}

/** An agent's assigned role and persona as the others see them, quoted; undefined when it was given neither. */
export function briefOf(agent: DebateAgent): string | undefined {
  const parts = [...(agent.role ? [`role ${JSON.stringify(agent.role)}`] : []), ...(agent.persona ? [`persona ${JSON.stringify(agent.persona)}`] : [])];
  return parts.length ? parts.join(', ') : undefined;
}

/** Why a role's premise is not the agent's own invention; shown beside the roles to peers and judges. */
export const ROLE_NOTE = 'A role is the brief the debate\'s organiser gave that agent: a premise it states (a deadline, a constraint, a duty) is given to that agent, not a claim it made up.';

/** The reply's fields in words (no JSON template: the reply schema goes with the request where the backend takes one). */
function replyFields(ctx: PromptContext, example: DebateAgent | undefined): string[] {
  const distribution = ctx.answerKind === 'distribution';
  const option = ctx.options ? 'one of the options, spelled as above' : 'your recommendation or answer';
  return [
    'Reply with one JSON object and nothing else. Its fields:',
    distribution
      ? '- "distribution" (required): your answer, an object from each option you hold to its weight.'
      : `- "answer" (required): ${option}.`,
    distribution
      ? '- "confidence" (optional): how sure you are of your allocation, from 0 to 1.'
      : '- "distribution" (optional): your belief over the options, an object from option to probability summing to 1, with your answer as its top option.',
    ...(distribution ? [] : ['- "confidence" (optional): the probability, from 0 to 1, that your answer is right; with a distribution, your answer\'s share of it.']),
    '- "claims": your own claims, each {"id": "c1", "text": "..."}.',
    `- "references": the claims of other agents you engage, each {"agent": ${JSON.stringify(example?.label ?? 'Agent 2')}, "claim": "R1-A${example?.number ?? 2}-c1", "stance": "rebut", "note": "..."}; "agent", "claim" and "stance" are required, "note" is optional.`,
    '- "evidence": the id, source or URL of each piece of evidence you rely on, as strings.',
    `- "reasoning" (optional): how you reached your ${distribution ? 'allocation' : 'answer'}.`,
  ];
}

/** The agent's system prompt; it never changes during a debate, so provider caches stay warm. */
export function systemPrompt(agent: DebateAgent, ctx: PromptContext): string {
  const others = ctx.agents.filter((other) => other.id !== agent.id);
  const peersSeeRoles = (ctx.roleVisibility ?? 'all') === 'all' && others.some((other) => briefOf(other));
  const distribution = ctx.answerKind === 'distribution';
  const lines = [
    `You are ${agent.label}, one of ${ctx.agents.length} agents debating the question below over up to ${ctx.rounds} rounds.`,
    ...(agent.role ? [`Your role or stance: ${agent.role}`] : []),
    ...(agent.persona ? [`Your persona: ${agent.persona}`] : []),
    ...(peersSeeRoles
      ? ['The other agents, with the roles they were given:', ...others.map((other) => `- ${other.label}${briefOf(other) ? `: ${briefOf(other)}` : ''}`), ROLE_NOTE]
      : [`The others are: ${others.map((other) => other.label).join(', ')}.`]),
    '',
    `Question: ${ctx.question}`,
    ...(ctx.options ? [`${distribution ? 'Allocate over' : 'Answer with one of'} these options: ${ctx.options.map((option) => JSON.stringify(option)).join(', ')}.`] : []),
    ...(distribution ? DISTRIBUTION_INSTRUCTIONS : []),
    '',
    'How the debate works:',
    '- Each round you see every response from the previous round and give one complete response of your own. All agents write a round at the same time: nobody sees the others\' responses to the round they are writing.',
    // Seed 002, section 2, verbatim; the next line is parley's: silence is read only where a claim matters.
    '- Address any opposing arguments that materially affect your recommendation. If you choose not to engage a claim, your silence may be interpreted as implicit acceptance.',
    '- That reading covers only opposing claims that bear on your recommendation: you need not reference any other claim, and a reference is for a claim your response actually addresses, not a record that you read it.',
    // Seed 002, section 3, verbatim, then how to do it.
    `- When engaging an opposing view, explicitly identify the agent and the specific claim being addressed: give the agent name and the claim id exactly as shown (e.g. R1-A${others[0]?.number ?? 2}-c1), and your stance toward it:`,
    ...(Object.entries(STANCE_TEXT) as [Stance, string][]).map(([stance, text], index, all) => `  ${stance}: ${text}${index === all.length - 1 ? '.' : ';'}`),
    '- Give each of your own claims a short id (c1, c2, ...); the others will see it as R<round>-A<agent number>-<id>.',
    `- Change your ${distribution ? 'allocation' : 'answer'} only for reasons you can state.`,
    '',
    ...replyFields(ctx, others[0]),
  ];
  return lines.join('\n');
}

/** `labelOf` names referenced agents by their shown label, whatever spelling the model used. */
export function renderTurn(turn: DebateTurn, label: string, self: boolean, labelOf: (agentId: string) => string | undefined, withReasoning = false): string {
  const head = `### ${label}${self ? ' (you)' : ''}`;
  if (turn.status !== 'ok' || !turn.record) return `${head}\n(no valid response this round)`;
  const record = turn.record;
  const lines = [head, `Answer: ${record.answer}`];
  const distribution = Object.entries(record.distribution);
  if (distribution.length > 1) lines.push(`Distribution: ${distribution.map(([key, value]) => `${key}=${value.toFixed(2)}`).join(', ')}`);
  if (record.confidence !== undefined) lines.push(`Confidence: ${record.confidence}`);
  lines.push('Claims:', ...(record.claims.length ? record.claims.map((claim) => `- [${claim.id}] ${claim.text}`) : ['- (none)']));
  if (record.references.length) {
    lines.push('Engages:');
    for (const ref of record.references) {
      const target = (ref.resolved ? labelOf(ref.targetAgent) : undefined) ?? ref.raw.agent;
      const claim = ref.targetClaim ?? ref.raw.claim;
      lines.push(`- ${ref.stance} ${target}${claim ? ` [${claim}]` : ''}${ref.note ? `: ${ref.note}` : ''}`);
    }
  }
  if (record.evidence.length) lines.push(`Evidence: ${record.evidence.join('; ')}`);
  if (withReasoning && record.reasoning) lines.push(`Reasoning: ${record.reasoning}`);
  return lines.join('\n');
}

/**
 * The user message of round `round` for one agent: the previous round's responses in that round's
 * speaking order, then the instruction. Appended after the agent's own previous reply, never rewritten.
 */
export function roundPrompt(args: {
  round: number;
  rounds: number;
  self: DebateAgent;
  agents: DebateAgent[];
  previous?: { round: number; order: string[]; turns: DebateTurn[] };
  tone?: Tone;
}): string {
  const parts: string[] = [];
  const labelOf = (agentId: string) => args.agents.find((agent) => agent.id === agentId)?.label;
  if (args.previous) {
    parts.push(`Responses of round ${args.previous.round}, in speaking order:`);
    for (const agentId of args.previous.order) {
      const turn = args.previous.turns.find((candidate) => candidate.agentId === agentId);
      const agent = args.agents.find((candidate) => candidate.id === agentId);
      if (!turn || !agent) continue;
      parts.push(renderTurn(turn, agent.label, agent.id === args.self.id, labelOf));
    }
    parts.push('');
  }
  parts.push(roundInstruction(args.round, args.rounds));
  const shared = args.previous ? sharedAnswer(args.previous.turns) : undefined;
  if (shared !== undefined) {
    parts.push(
      `Every agent answered ${JSON.stringify(shared)} in round ${args.previous!.round}, so there is no opposing answer to engage. Test the shared answer instead: find its weakest step or the strongest case against it, and say whether it holds. Keep the answer if it does; change it if it does not.`,
    );
  }
  if (args.tone) parts.push(TONE_TEXT[args.tone]);
  return parts.join('\n\n');
}

/** The last planned round says so: the debate ends after it and nobody answers it. */
function roundInstruction(round: number, rounds: number): string {
  if (round === rounds) {
    const which = rounds === 1 ? 'Round 1 of 1, the only round' : `Round ${round} of ${rounds}, the last round`;
    return `${which}: the debate ends after it and no agent will reply to your response, so give your ${rounds === 1 ? '' : 'final '}answer and the claims that decide it.`;
  }
  return round === 1
    ? `Round 1 of up to ${rounds}: give your opening response.`
    : `Round ${round} of up to ${rounds}: respond, engaging the claims that matter to your recommendation.`;
}

/** The one answer every valid turn of a round gave (two or more of them), else undefined. */
function sharedAnswer(turns: DebateTurn[]): string | undefined {
  const answers = turns.filter(isValidTurn).map((turn) => turn.record!.answer);
  return answers.length >= 2 && answers.every((answer) => answer === answers[0]) ? answers[0] : undefined;
}

export const REPAIR_PROMPT = (problem: string): string =>
  `Your reply could not be read as the JSON object asked for (${problem}). Send the same response again as one JSON object only, matching the format in the instructions.`;
