import { z } from 'zod';
import { ClaimType, EvidenceType, type DeliberationState } from '../../schemas/argumentation.js';
import { citedFactIds, findFact, isOneSentence, isSubstantive, saysNone } from './queries.js';
import { refuse, type MoveResult } from './result.js';

/** Fields that put a point into Agreed; shared by point_evaluate, challenge_resolve and bucket_assign. */
export const AgreedFields = {
  claimType: ClaimType.optional().describe('empirical needs execution|textual evidence'),
  evidenceType: EvidenceType.optional(),
  evidence: z.string().optional().describe('output, path:line quote, or verified fact ids'),
  reason: z.string().optional(),
};

export interface AgreedInput {
  claimType?: ClaimType;
  evidenceType?: EvidenceType;
  evidence?: string;
  reason?: string;
}

export function evidenceGate(state: DeliberationState, pointId: string, input: AgreedInput): MoveResult | { claimType: ClaimType; evidenceType: EvidenceType; evidence?: string; reason: string } {
  if (!input.claimType) return refuse(state, 'evidence-gate', `Say whether ${pointId} is empirical or a value judgment (claimType) before it can be Agreed.`);
  const reason = substantive(state, input.reason, `Agreeing with ${pointId}`);
  if (typeof reason !== 'string') return reason;
  if (input.claimType === 'value') return { claimType: 'value', evidenceType: input.evidenceType ?? 'n/a', evidence: input.evidence, reason };
  if (input.evidenceType !== 'execution' && input.evidenceType !== 'textual') {
    return refuse(state, 'evidence-gate', `${pointId} is empirical: Agreed needs evidenceType execution or textual (unclear evidence is not evidence); verify it or keep it contested.`);
  }
  if (!input.evidence?.trim()) return refuse(state, 'evidence-gate', `${pointId}: name the ${input.evidenceType} evidence (output, or path:line with a verbatim quote).`);
  const unverified = citedFactIds(input.evidence).filter((id) => findFact(state, id)?.tag === 'codex-unverified' || findFact(state, id)?.refuted);
  if (unverified.length) {
    return refuse(state, 'evidence-gate', `${unverified.join(', ')} are consultee claims not verified: verify them with ledger_update (action verify) before using them as evidence.`);
  }
  return { claimType: 'empirical', evidenceType: input.evidenceType, evidence: input.evidence, reason };
}

export function substantive(state: DeliberationState, reason: string | undefined, what: string): MoveResult | string {
  if (!isSubstantive(reason)) return refuse(state, 'substantive-reason', `${what} needs a substantive reason (a few words that say why), not "${reason ?? ''}".`);
  return (reason ?? '').trim();
}

/** SKEPTICAL and REJECT must name the flaw in one sentence; "none" contradicts the classification. */
export function articulateFlaw(state: DeliberationState, classification: string, flaw: string | undefined): MoveResult | undefined {
  if (!flaw?.trim()) return refuse(state, 'articulation', `${classification} must state the flaw in one sentence (flaw).`);
  if (saysNone(flaw)) return refuse(state, 'articulation', `"Flaw: none" contradicts ${classification}: classify AGREE, or name the flaw.`);
  if (!isOneSentence(flaw)) return refuse(state, 'articulation', 'State the flaw in one sentence; put the rest in evidence or reason.');
  return undefined;
}

export interface BlockedInput {
  measurement?: string;
  threshold?: string;
  verdictChange?: string;
}

/** Blocked is only valid with what to measure, the threshold that matters and how the verdict changes. */
export function blockedRule(state: DeliberationState, input: BlockedInput): MoveResult | undefined {
  const missing = (['measurement', 'threshold', 'verdictChange'] as const).filter((k) => !input[k]?.trim());
  if (missing.length) {
    return refuse(state, 'blocked-needs-measurement', `Blocked needs measurement, threshold and verdictChange (missing: ${missing.join(', ')}); without them it counts as a failed defense.`);
  }
  return undefined;
}

export const isRefusal = (x: unknown): x is MoveResult => typeof x === 'object' && x !== null && 'ok' in x;
