import { z } from 'zod';
import { ProvenanceTag, type DeliberationState, type Fact } from '../../../schemas/argumentation.js';
import { appendFact } from '../core/mutations.js';
import { findFact } from '../core/queries.js';
import { consulteeSource, factIdsIn, factSupportGap, normaliseId } from '../core/references.js';
import { accept, draft, refuse, requireNotQuick, type MoveContext, type MoveResult } from './result.js';

/** Oversized text belongs in a file, referenced by path:lines with an excerpt. */
export const MAX_FACT_CHARS = 2000;

const FactBody = {
  text: z.string().min(1).describe('The fact; may contain [REDACTED: reason]'),
  tag: ProvenanceTag,
  reference: z.string().optional().describe('verified: path:line + quote, command + output, URL + quote, or measurement + method'),
  justification: z.string().optional().describe('revision: why the position changed'),
  // Checked and described where a judgment's ledger item takes it (judgment.ts).
  label: z.string().optional(),
};

export const LedgerAddInput = z.object(FactBody);
export type LedgerAddInput = z.infer<typeof LedgerAddInput>;

export const LedgerSupersedeInput = z.object({ factId: z.string(), ...FactBody });
export type LedgerSupersedeInput = z.infer<typeof LedgerSupersedeInput>;

export const LedgerVerifyInput = z.object({
  factId: z.string(),
  outcome: z.enum(['confirmed', 'partial', 'refuted']),
  reference: z.string().min(1).describe('What was checked: path:line + quote, command + output...'),
  verifiedText: z.string().optional().describe('partial: the part that held'),
  unverifiedRest: z.string().optional().describe('partial: the part still unverified'),
});
export type LedgerVerifyInput = z.infer<typeof LedgerVerifyInput>;

/**
 * A verification rests on what the orchestrator checked: a point id or "Codex said so" is none, and a fact it
 * cites must resolve to an active user or verified one (the fact being checked may be named).
 */
function referenceGate(state: DeliberationState, reference: string | undefined, target?: string): MoveResult | undefined {
  const problems = [consulteeSource(state, reference), ...factIdsIn(reference).filter((c) => c.id !== target).map((c) => factSupportGap(state, c.id))].filter((p): p is string => !!p);
  if (!problems.length) return undefined;
  return refuse(state, 'verified-needs-reference', `A verification needs a reference to what you checked yourself: ${problems.join('; ')}. Give path:line + quote, command + output, URL + quote, or measurement + method.`);
}

function checkBody(state: DeliberationState, body: LedgerAddInput, target?: string): MoveResult | undefined {
  if (body.text.length > MAX_FACT_CHARS) {
    return refuse(state, 'oversized-fact', `Fact text is ${body.text.length} characters (max ${MAX_FACT_CHARS}): cite it as path:lines with a short excerpt.`);
  }
  if (body.tag === 'verified' && !body.reference?.trim()) {
    return refuse(state, 'verified-needs-reference', 'A `verified` fact needs a reference (path:line + quote, command + output, URL + quote, or measurement + method).');
  }
  if (body.tag === 'verified') {
    const bad = referenceGate(state, body.reference, target);
    if (bad) return bad;
  }
  if (body.tag === 'revision' && !body.justification?.trim()) {
    return refuse(state, 'revision-needs-justification', 'A `revision` fact needs a justification saying why the position changed.');
  }
  return undefined;
}

/** Which tags may supersede a fact of a given tag (user is authoritative; unverified never beats verified). */
const MAY_SUPERSEDE: Record<Fact['tag'], Fact['tag'][]> = {
  user: ['user'],
  verified: ['user', 'verified'],
  revision: ['user', 'verified', 'revision'],
  'codex-unverified': ['user', 'verified', 'revision', 'codex-unverified'],
};

function activeTarget(state: DeliberationState, factId: string): Fact | MoveResult {
  const fact = findFact(state, factId);
  if (!fact) return refuse(state, 'unknown-fact', `No fact ${normaliseId(factId)}; the ledger has ${state.ledger.length ? `F1..F${state.ledger.length}` : 'no facts yet'}.`);
  if (fact.supersededBy || fact.refuted) {
    return refuse(state, 'fact-not-active', `${fact.id} is no longer active (${fact.supersededBy ? `superseded by ${fact.supersededBy}` : 'refuted'}).`);
  }
  return fact;
}

export function ledgerAdd(state: DeliberationState, input: LedgerAddInput, ctx: MoveContext): MoveResult {
  const guard = requireNotQuick(state, 'ledger') ?? checkBody(state, input);
  if (guard) return guard;
  const next = draft(state);
  const fact = appendFact(next, { text: input.text, tag: input.tag, reference: input.reference, justification: input.justification, ...(input.label ? { label: input.label } : {}) });
  return accept(next, [`${fact.id} added (${fact.tag})`], ctx);
}

export function ledgerSupersede(state: DeliberationState, input: LedgerSupersedeInput, ctx: MoveContext): MoveResult {
  const found = requireNotQuick(state, 'ledger') ?? activeTarget(state, input.factId);
  if ('ok' in found) return found;
  const target = found;
  const guard = checkBody(state, input, target.id);
  if (guard) return guard;
  if (!MAY_SUPERSEDE[target.tag].includes(input.tag)) {
    return refuse(state, 'provenance-integrity', `A \`${input.tag}\` fact cannot supersede ${target.id} (\`${target.tag}\`); allowed: ${MAY_SUPERSEDE[target.tag].join(', ')}.`);
  }
  const next = draft(state);
  // A new version keeps the name the old one was cited by, unless it is given its own.
  const label = input.label ?? target.label;
  const fact = appendFact(next, { text: input.text, tag: input.tag, reference: input.reference, justification: input.justification, supersedes: target.id, ...(label ? { label } : {}) });
  const old = findFact(next, target.id);
  if (old) {
    old.supersededBy = fact.id;
    old.changedIter = next.n;
  }
  return accept(next, [`${fact.id} (supersedes ${target.id}) added (${fact.tag})`], ctx);
}

/** The only path from `codex-unverified` to `verified`: tags never change in place. */
export function ledgerVerify(state: DeliberationState, input: LedgerVerifyInput, ctx: MoveContext): MoveResult {
  const guard = requireNotQuick(state, 'ledger');
  if (guard) return guard;
  const target = activeTarget(state, input.factId);
  if ('ok' in target) return target;
  if (target.tag !== 'codex-unverified') {
    return refuse(state, 'nothing-to-verify', `${target.id} is \`${target.tag}\`; only \`codex-unverified\` facts are verified.`);
  }
  const unchecked = referenceGate(state, input.reference, target.id);
  if (unchecked) return unchecked;
  const next = draft(state);
  const old = findFact(next, target.id);
  if (!old) throw new Error('bug: fact vanished');
  old.changedIter = next.n;
  if (input.outcome === 'refuted') {
    old.refuted = true;
    old.reference = input.reference;
    return accept(next, [`${old.id} refuted (${input.reference})`], ctx);
  }
  if (input.outcome === 'confirmed') {
    const fact = appendFact(next, { text: old.text, tag: 'verified', reference: input.reference, supersedes: old.id });
    old.supersededBy = fact.id;
    return accept(next, [`${old.id} verified as ${fact.id}`], ctx);
  }
  if (!input.verifiedText?.trim() || !input.unverifiedRest?.trim()) {
    return refuse(state, 'partial-needs-split', 'A partial verification names both verifiedText (the part that held) and unverifiedRest (the part still unverified).');
  }
  const verified = appendFact(next, { text: input.verifiedText, tag: 'verified', reference: input.reference, splitFrom: old.id, supersedes: old.id });
  const rest = appendFact(next, { text: input.unverifiedRest, tag: 'codex-unverified', splitFrom: old.id });
  old.supersededBy = verified.id;
  return accept(next, [`${old.id} split: ${verified.id} verified, ${rest.id} still unverified`], ctx);
}

/** One tool for the ledger (fewer tools keep tools/list small); `action` picks the rule set. */
export const LedgerUpdateInput = z.object({
  action: z.enum(['add', 'supersede', 'verify']),
  factId: z.string().optional().describe('supersede, verify: the fact'),
  text: FactBody.text.optional(),
  tag: ProvenanceTag.optional(),
  reference: z.string().optional().describe('verified facts and verify: path:line + quote, command + output, URL + quote, or measurement + method'),
  justification: FactBody.justification,
  outcome: z.enum(['confirmed', 'partial', 'refuted']).optional().describe('verify'),
  verifiedText: z.string().optional().describe('verify partial: the part that held'),
  unverifiedRest: z.string().optional().describe('verify partial: the part still unverified'),
});
export type LedgerUpdateInput = z.infer<typeof LedgerUpdateInput>;

export function ledgerUpdate(state: DeliberationState, input: LedgerUpdateInput, ctx: MoveContext): MoveResult {
  const { action, ...rest } = input;
  const [schema, apply] =
    action === 'add'
      ? ([LedgerAddInput, ledgerAdd] as const)
      : action === 'supersede'
        ? ([LedgerSupersedeInput, ledgerSupersede] as const)
        : ([LedgerVerifyInput, ledgerVerify] as const);
  const parsed = schema.safeParse(rest);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
    return refuse(state, 'invalid-input', `A ledger ${action} item needs ${fields}.`);
  }
  return (apply as (s: DeliberationState, i: unknown, c: MoveContext) => MoveResult)(state, parsed.data, ctx);
}
