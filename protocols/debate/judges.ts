import { z } from 'zod';
import type { CritAgentScore, DebateRound, RcaVerdict } from '../../schemas/debate.js';
import type { DebateAgent } from './agents.js';
import { findAgent } from './parse-turn.js';
import { renderTurn } from './prompts.js';
import { isValidTurn, meanRho } from './round-measures.js';

export const CRIT_FLAGS = ['contradictions', 'unsupported_claims', 'ignored_critiques', 'premature_certainty', 'causal_overreach', 'conclusion_drift'] as const;

const Score10 = z.number().min(1).max(10);
const Unit = z.number().min(0).max(1);
const ScoredReason = z.object({ text: z.string(), validity: Score10, credibility: Score10 });

export const CritReply = z.object({
  agents: z.array(
    z.object({
      agent: z.string(),
      reasons: z.array(ScoredReason).optional(),
      rivals: z.array(ScoredReason).optional(),
      pillars: z.object({ logicalValidity: Unit, evidentialSupport: Unit, alternativeConsideration: Unit, causalAlignment: Unit }).optional(),
      flags: z.array(z.string()).default([]),
    }),
  ),
});
export type CritReply = z.infer<typeof CritReply>;

export const RcaReply = z.object({
  agents: z.array(
    z.object({
      agent: z.string(),
      verdict: z.enum(['CONSISTENT', 'INCONSISTENT_SYCOPHANTIC', 'INCONSISTENT_STUBBORN', 'INCONSISTENT_OTHER']),
      explanation: z.string(),
      confidence: Unit,
    }),
  ),
});
export type RcaReply = z.infer<typeof RcaReply>;

export type CritVariant = 'gamma' | 'pillars' | 'both';

function renderRound(round: DebateRound, agents: DebateAgent[], validOnly = false): string {
  return round.order
    .map((agentId) => {
      const turn = round.turns.find((candidate) => candidate.agentId === agentId && (!validOnly || isValidTurn(candidate)));
      const agent = agents.find((candidate) => candidate.id === agentId);
      return turn && agent ? renderTurn(turn, agent.label, false, (id) => agents.find((candidate) => candidate.id === id)?.label, true) : '';
    })
    .filter(Boolean)
    .join('\n\n');
}

/** The CRIT judge never sees a ground truth: it reads the question and the round only. */
export function critPrompt(question: string, round: DebateRound, agents: DebateAgent[], variant: CritVariant): string {
  const asks: string[] = [];
  if (variant !== 'pillars') {
    asks.push(
      '"reasons": the reasons the agent gives for its conclusion, each scored for validity (1-10, does it support the conclusion) and credibility (1-10, how trustworthy its source is); "rivals": the strongest reasons against its conclusion (raised by other agents or that you can think of), scored the same way.',
    );
  }
  if (variant !== 'gamma') {
    asks.push(
      '"pillars": four scores from 0 to 1: logicalValidity, evidentialSupport, alternativeConsideration (did it weigh the opposing arguments), causalAlignment (do its causal claims follow).',
    );
  }
  asks.push(`"flags": any of ${CRIT_FLAGS.join(', ')} that apply.`);
  return [
    'You audit the reasoning of agents in a debate. Judge the quality of each response, not whether its answer is right.',
    `Question under debate: ${question}`,
    `Round ${round.round} responses:`,
    renderRound(round, agents, true),
    'For each agent with a response, give: ' + asks.join(' '),
    'Reply with one JSON object only: {"agents": [{"agent": "<name as shown>", ...}]}',
  ].join('\n\n');
}

export function rcaPrompt(question: string, previous: DebateRound, current: DebateRound, agents: DebateAgent[]): string {
  return [
    "You check each debater's consistency between its reasoning and its output from one round to the next.",
    `Question under debate: ${question}`,
    `Round ${previous.round} responses:`,
    renderRound(previous, agents),
    `Round ${current.round} responses:`,
    renderRound(current, agents),
    [
      `For each agent with a round ${current.round} response, give a verdict:`,
      'CONSISTENT (its answer follows from its own reasoning);',
      'INCONSISTENT_SYCOPHANTIC (it changed to agree with a critique it had itself argued was invalid);',
      'INCONSISTENT_STUBBORN (it kept its answer although it called a critique valid);',
      'INCONSISTENT_OTHER (any other mismatch between reasoning and answer);',
      'with a one-sentence explanation and a confidence from 0 to 1.',
    ].join(' '),
    'Reply with one JSON object only: {"agents": [{"agent": "<name as shown>", "verdict": "...", "explanation": "...", "confidence": 0.0}]}',
  ].join('\n\n');
}

/** Gamma = sum(validity * credibility) / |R u R'| over the reasons and the rival reasons. */
export function critGamma(reasons: { validity: number; credibility: number }[], rivals: { validity: number; credibility: number }[]): number | undefined {
  const all = [...reasons, ...rivals];
  if (all.length === 0) return undefined;
  return all.reduce((sum, reason) => sum + reason.validity * reason.credibility, 0) / all.length;
}

/** Only agents with a valid turn this round are scored; a score the judge gave anyone else is dropped. */
export function critScores(reply: CritReply, agents: DebateAgent[], round: DebateRound): { scores: CritAgentScore[]; rhoBar?: number } {
  const valid = new Set(round.turns.filter(isValidTurn).map((turn) => turn.agentId));
  const scores = reply.agents.flatMap((entry): CritAgentScore[] => {
    const agent = findAgent(agents, entry.agent);
    if (!agent || !valid.has(agent.id)) return [];
    const gamma = critGamma(entry.reasons ?? [], entry.rivals ?? []);
    const pillars = entry.pillars;
    const rho = pillars ? (pillars.logicalValidity + pillars.evidentialSupport + pillars.alternativeConsideration + pillars.causalAlignment) / 4 : undefined;
    return [{ agentId: agent.id, ...(gamma !== undefined && { gamma }), ...(pillars && { pillars }), ...(rho !== undefined && { rho }), flags: entry.flags }];
  });
  const rhoBar = meanRho(scores, valid);
  return { scores, ...(rhoBar !== undefined && { rhoBar }) };
}

export function rcaVerdicts(reply: RcaReply, agents: DebateAgent[]): RcaVerdict[] {
  return reply.agents.flatMap((entry): RcaVerdict[] => {
    const agent = findAgent(agents, entry.agent);
    return agent ? [{ agentId: agent.id, verdict: entry.verdict, explanation: entry.explanation, confidence: entry.confidence }] : [];
  });
}
