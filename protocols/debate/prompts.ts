import type { DebateTurn } from '../../schemas/debate.js';
import type { DebateAgent } from './agents.js';
import type { Tone } from './pid.js';

export const TONE_TEXT: Record<Tone, string> = {
  adversarial:
    'Tone for this round: adversarial. Test every argument hard, press on weak reasoning and missing evidence, and do not move without strong grounds.',
  balanced:
    'Tone for this round: balanced. Challenge what is weak and accept what is well supported, giving each argument the weight it deserves.',
  collaborative:
    'Tone for this round: collaborative. Look for common ground, build on sound points and concede plainly where another agent is right.',
};

const REPLY_FORMAT = `Reply with one JSON object and nothing else:
{
  "answer": "<your recommendation or answer>",
  "distribution": { "<option>": <probability>, ... },   // optional: your belief over the options, summing to 1
  "confidence": <0..1>,                                  // optional
  "claims": [ { "id": "c1", "text": "<one claim you make>" } ],
  "references": [ { "agent": "<agent name as shown>", "claim": "<claim id as shown, e.g. R1-A2-c1>", "stance": "rebut|support|concede|extend", "note": "<optional>" } ],
  "evidence": [ "<id, source or URL of each piece of evidence you rely on>" ],
  "reasoning": "<optional: how you reached the answer>"
}`;

const DISTRIBUTION_REPLY_FORMAT = `Reply with one JSON object and nothing else:
{
  "distribution": { "<option>": <weight>, ... },          // required: your answer, an allocation over the options
  "confidence": <0..1>,                                  // optional
  "claims": [ { "id": "c1", "text": "<one claim you make>" } ],
  "references": [ { "agent": "<agent name as shown>", "claim": "<claim id as shown, e.g. R1-A2-c1>", "stance": "rebut|support|concede|extend", "note": "<optional>" } ],
  "evidence": [ "<id, source or URL of each piece of evidence you rely on>" ],
  "reasoning": "<optional: how you reached the allocation>"
}`;

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
}

/** The agent's system prompt; it never changes during a debate, so provider caches stay warm. */
export function systemPrompt(agent: DebateAgent, ctx: PromptContext): string {
  const others = ctx.agents.filter((other) => other.id !== agent.id).map((other) => other.label);
  const lines = [
    `You are ${agent.label}, one of ${ctx.agents.length} agents debating the question below over up to ${ctx.rounds} rounds. The others are: ${others.join(', ')}.`,
    ...(agent.role ? [`Your role or stance: ${agent.role}`] : []),
    ...(agent.persona ? [`Your persona: ${agent.persona}`] : []),
    '',
    `Question: ${ctx.question}`,
    ...(ctx.options
      ? [`${ctx.answerKind === 'distribution' ? 'Allocate over' : 'Answer with one of'} these options: ${ctx.options.map((option) => JSON.stringify(option)).join(', ')}.`]
      : []),
    ...(ctx.answerKind === 'distribution' ? DISTRIBUTION_INSTRUCTIONS : []),
    '',
    'How the debate works:',
    '- Each round you see every response from the previous round and give one complete response of your own.',
    '- Deal with the opposing arguments that bear on your recommendation. You need not answer everyone, but a claim you leave unanswered may be taken as one you accept.',
    '- Whenever you engage another view, say whose it is and which claim: give the agent name and the claim id exactly as shown, and your stance toward it (rebut, support, concede or extend).',
    '- Give each of your own claims a short id (c1, c2, ...); the others will see it as R<round>-A<agent number>-<id>.',
    `- Change your ${ctx.answerKind === 'distribution' ? 'allocation' : 'answer'} only for reasons you can state.`,
    '',
    ctx.answerKind === 'distribution' ? DISTRIBUTION_REPLY_FORMAT : REPLY_FORMAT,
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
  parts.push(
    args.round === 1
      ? `Round 1 of up to ${args.rounds}: give your opening response.`
      : `Round ${args.round} of up to ${args.rounds}: respond, engaging the claims that matter to your recommendation.`,
  );
  if (args.tone) parts.push(TONE_TEXT[args.tone]);
  return parts.join('\n\n');
}

export const REPAIR_PROMPT = (problem: string): string =>
  `Your reply could not be read as the JSON object asked for (${problem}). Send the same response again as one JSON object only, matching the format in the instructions.`;
