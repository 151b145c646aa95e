import { z } from 'zod';
import { ClaimType, EvidenceType, type DeliberationState } from '../../../schemas/argumentation.js';
import { findPoint, isSubstantive, saysNone, sentences } from '../core/queries.js';
import { evidenceProblems, normaliseId } from '../core/references.js';
import { refuse, type MoveResult } from './result.js';
import { evidenceReason } from '../core/evidence.js';
import { rerunEvidence } from '../core/rerun-evidence.js';

/** Fields that put a point into Agreed; shared by point verdicts, challenge verdicts and buckets. */
export const AgreedFields = {
  claimType: ClaimType.optional().describe('empirical: execution|textual evidence; logical: premises; value: n/a'),
  evidenceType: EvidenceType.optional(),
  evidence: z.string().optional().describe('output, path:line quote, or verified fact ids (@label: one this judgment adds)'),
  premises: z.array(z.string()).optional().describe('logical: user/verified fact ids (or @labels) it follows from'),
  reason: z.string().optional().describe('why: AGREE value claims, dismissals, out-of-scope or anchor-shift triage'),
  rerun: z.string().optional().describe("you re-ran Codex's EVIDENCE command: what you saw"),
};

/** The same fields undescribed, where a second copy in one tool would only repeat the first (tools/list is paid per turn). */
export const AgreedFieldsPlain = {
  claimType: ClaimType.optional(),
  evidenceType: EvidenceType.optional(),
  evidence: z.string().optional(),
  premises: z.array(z.string()).optional(),
  reason: z.string().optional(),
  rerun: z.string().optional(),
};

export interface AgreedInput {
  claimType?: ClaimType;
  evidenceType?: EvidenceType;
  evidence?: string;
  premises?: string[];
  reason?: string;
  rerun?: string;
}

export type AgreedGate = { claimType: ClaimType; evidenceType: EvidenceType; evidence?: string; premises?: string[]; reason: string; rerun?: boolean };

/**
 * Every id the claim rests on resolves (core/references.ts): a cited fact exists and, for an empirical or
 * logical claim, is an active user or verified fact (the consultee cannot have put it there unverified);
 * a point id or "Codex said so" is never evidence nor a premise.
 */
function citationRefusal(state: DeliberationState, pointId: string, claimType: ClaimType, problems: string[]): MoveResult {
  const fix =
    claimType === 'value'
      ? 'Cite only facts the ledger holds.'
      : 'Evidence names what you checked (command + output, or path:line + verbatim quote) or active user/verified facts: verify a codex-unverified fact with a ledger verify item first, and cite a superseded fact by the one that replaced it.';
  return refuse(state, 'evidence-gate', `The evidence for ${pointId} does not hold: ${problems.join('; ')}. ${fix}`);
}

function logicalGate(state: DeliberationState, pointId: string, input: AgreedInput, reason: string): MoveResult | AgreedGate {
  const { problems, premises } = evidenceProblems(state, { claimType: 'logical', evidence: input.evidence, premises: input.premises });
  if (problems.length) return citationRefusal(state, pointId, 'logical', problems);
  if (!premises.length) return refuse(state, 'evidence-gate', `${pointId} is logical: cite the ledger facts it follows from (premises: ["F1", ...]).`);
  return { claimType: 'logical', evidenceType: 'deduction', evidence: input.evidence, premises, reason };
}

/** The consultee's words on a point: the point, the answers made for it, their items. */
function consulteeWords(state: DeliberationState, pointId: string): string[] {
  const point = findPoint(state, pointId);
  if (!point) return [];
  const answers = state.challenges.filter((c) => c.pointId === pointId).map((c) => c.defense ?? '');
  const items = state.points.filter((p) => p.partOf && (p.partOf === pointId || state.challenges.some((c) => c.id === p.partOf && c.pointId === pointId)));
  return [point.text, point.defense ?? '', ...answers, ...items.map((p) => p.text)];
}

/**
 * Confirming the consultee's own check costs one short item: the orchestrator re-ran the command Codex gave
 * as EVIDENCE and says what it saw. Codex's word alone is still no evidence: only the re-run is.
 */
function rerunGate(state: DeliberationState, pointId: string, input: AgreedInput): MoveResult | AgreedGate {
  if (input.claimType && input.claimType !== 'empirical') return refuse(state, 'evidence-gate', `rerun confirms an empirical claim; ${pointId} is given as ${input.claimType}: drop rerun, or claimType empirical.`);
  if (!consulteeWords(state, pointId).some((t) => /\bEVIDENCE\b/.test(t))) {
    return refuse(state, 'evidence-gate', `rerun confirms a check Codex gave as EVIDENCE (command and output); ${pointId} gives none: give your own evidence (evidenceType, evidence) instead.`);
  }
  const rerun = input.rerun!.trim();
  const evidence = rerunEvidence(input.evidence, rerun);
  const { problems } = evidenceProblems(state, { claimType: 'empirical', evidence });
  if (problems.length) return citationRefusal(state, pointId, 'empirical', problems);
  return { claimType: 'empirical', evidenceType: 'execution', evidence, reason: input.reason?.trim() || "re-ran Codex's command", rerun: true };
}

export function evidenceGate(state: DeliberationState, pointId: string, input: AgreedInput): MoveResult | AgreedGate {
  if (input.rerun?.trim()) return rerunGate(state, pointId, input);
  if (!input.claimType) return refuse(state, 'evidence-gate', `Say whether ${pointId} is empirical, logical or a value judgment (claimType) before it can be Agreed.`);
  // Evidence or premises say why an empirical or logical claim holds; a value claim needs its reason.
  // Short, so the report does not print the evidence twice.
  const implied = input.claimType === 'value' ? undefined : input.evidence?.trim() ? evidenceReason(input.evidenceType) : input.premises?.length ? `follows from ${input.premises.map(normaliseId).join(', ')}` : undefined;
  const reason = substantive(state, input.reason ?? implied, `Agreeing with ${pointId}`);
  if (typeof reason !== 'string') return reason;
  if (input.claimType === 'value') {
    const { problems } = evidenceProblems(state, { claimType: 'value', evidence: input.evidence });
    return problems.length ? citationRefusal(state, pointId, 'value', problems) : { claimType: 'value', evidenceType: 'n/a', evidence: input.evidence, reason };
  }
  if (input.claimType === 'logical') return logicalGate(state, pointId, input, reason);
  if (input.evidenceType !== 'execution' && input.evidenceType !== 'textual') {
    return refuse(state, 'evidence-gate', `${pointId} is empirical: Agreed needs evidenceType execution or textual (unclear evidence is not evidence); verify it or keep it contested.`);
  }
  if (!input.evidence?.trim()) return refuse(state, 'evidence-gate', `${pointId}: name the ${input.evidenceType} evidence (output, or path:line with a verbatim quote).`);
  const { problems } = evidenceProblems(state, { claimType: 'empirical', evidence: input.evidence });
  if (problems.length) return citationRefusal(state, pointId, 'empirical', problems);
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
  const found = sentences(flaw);
  if (found.length > 1) {
    return refuse(state, 'articulation', `State the flaw in one sentence; put the rest in evidence or reason. Found ${found.length}: ${found.map((s) => `"${s}"`).join(' ')}`);
  }
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
