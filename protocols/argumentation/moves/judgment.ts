import { z } from 'zod';
import { Classification, DismissTag, type DeliberationState } from '../../../schemas/argumentation.js';
import { bucketAssign } from './bucket-moves.js';
import { challengeResolve, ChallengeResolveInput } from './challenge-moves.js';
import { AgreedFields } from './gates.js';
import { CONVERGED, iterationAdvance } from './iteration.js';
import { itemLegal, type ItemLegal } from '../rules/legal-actions.js';
import { normaliseId } from '../core/references.js';
import { nextLegalMoves } from '../rules/legal-moves.js';
import { FACT_LABEL, FactCitations } from './fact-labels.js';
import { LedgerUpdateInput, ledgerUpdate } from './ledger-moves.js';
import { pointEvaluate, pointTriage, Revision } from './point-moves.js';
import { findPoint } from '../core/queries.js';
import type { Point } from '../../../schemas/argumentation.js';
import { supersede, supersessionBlocker } from './supersede.js';
import { correctReading, ReadingCorrection } from './reading-corrections.js';
import { surfaceQuestion } from '../core/mutations.js';
import { accept, draft, refuse, requireActive, type ItemRefusal, type MoveContext, type MoveResult } from './result.js';
import { StressTestRecordInput, stressTestRecord, warrantStressTest } from './review-moves.js';
import { synthesize, SynthesizeInput } from './synthesize.js';

const Blocked = {
  measurement: z.string().optional(),
  threshold: z.string().optional(),
  verdictChange: z.string().optional(),
};

/** Everything decided about one point: triage, classification and placement, applied in that order. */
export const PointJudgment = z.object({
  id: z.string(),
  supersedes: z.string().optional().describe('an earlier point this one replaces, corrects or narrows'),
  claim: z.string().optional().describe('AGREE with less than written: your wording (quick: or after a partial concession)'),
  triage: z.enum(['in-scope', 'out-of-scope', 'anchor-shift', 'new-argument']).optional().describe('default in-scope; new-argument (DEVELOPMENT on): Not Evaluated'),
  decisive: z.boolean().optional().describe('CRYSTALLIZATION: settles the exact claim'),
  verdict: Classification.optional(),
  flaw: z.string().optional().describe('SKEPTICAL/REJECT: one sentence; ILL-FORMED: what to clarify'),
  terminalWhy: z.string().optional().describe('REJECT'),
  contradicts: z.string().optional().describe("consultee's earlier point it contradicts"),
  revision: Revision.optional(),
  ...AgreedFields,
  bucket: z.enum(['agreed', 'dismissed', 'unresolved']).optional().describe('place a point already classified'),
  tag: DismissTag.extract(['REJECTED', 'FALSE', 'RISKY', 'VIOLATES-CONSTRAINT']).optional().describe('dismissed'),
  status: z.enum(['blocked', 'tradeoff', 'definitional']).optional().describe('unresolved'),
  crux: z.string().optional().describe('unresolved: what it turns on'),
  ...Blocked,
});
export type PointJudgment = z.infer<typeof PointJudgment>;

export const ChallengeJudgment = ChallengeResolveInput.omit({ challengeId: true }).extend({ id: z.string() });
export type ChallengeJudgment = z.infer<typeof ChallengeJudgment>;

export const JudgeInput = z.object({
  ledger: z.array(LedgerUpdateInput.extend({ label: z.string().regex(FACT_LABEL).optional().describe('name to cite it by, here and later: @name') })).optional(),
  reading: z.array(ReadingCorrection).optional(),
  points: z.array(PointJudgment).optional(),
  challenges: z.array(ChallengeJudgment).optional(),
  stressTest: StressTestRecordInput.optional(),
  questions: z.array(z.string().min(1)).optional().describe('for the user: surfaced in the report'),
  phase: z
    .object({
      advance: z.boolean().optional(),
      stressTestWarranted: z.boolean().optional(),
      trivial: z.boolean().optional().describe('factual question settled: exit'),
    })
    .optional(),
  synthesis: SynthesizeInput.optional().describe('applied if the deliberation ends'),
});
export type JudgeInput = z.infer<typeof JudgeInput>;

type Step = (s: DeliberationState) => MoveResult;

export const HELD = "synthesis held: it ends the deliberation if Codex's next reply has nothing further and leaves nothing to judge";

/**
 * One judgment per iteration. Items are applied in order (ledger, reading, points, challenges,
 * stress test), each through the same move as on its own; a refused item leaves the state as the
 * items before it made it (every state reached is one a sequence of legal moves reaches; a point
 * item's triage, verdict and bucket stand or fall together) and comes back with its rule and legal
 * actions. The advance and the synthesis run only when nothing was refused: they presume every
 * decision before them. Facts the judgment adds are cited by the ids they got (fact-labels.ts).
 */
export function judge(state: DeliberationState, input: JudgeInput, ctx: MoveContext): MoveResult {
  let current = state;
  const effects: string[] = [];
  const refused: Omit<ItemRefusal, 'legal'>[] = [];
  const citations = new FactCitations(state);
  const refuseItem = (item: string, ref: string | undefined, refusal: { rule: string; message: string }, label?: string): false => {
    refused.push({ item, ...(ref ? { ref } : {}), rule: refusal.rule, message: refusal.message });
    citations.refused(current, item, label);
    return false;
  };
  const run = (item: string, ref: string | undefined, step: Step, label?: string): boolean => {
    const result = step(current);
    if (!result.ok) return refuseItem(item, ref, result.refusal, label);
    current = result.state;
    effects.push(...result.effects);
    return true;
  };
  // Every item cites this judgment's new facts by the ids they got: labels resolved, unpredictable ids refused.
  const cite = <T>(item: string, ref: string | undefined, raw: T, step: (s: DeliberationState, resolved: T) => MoveResult, label?: string): boolean => {
    const resolved = citations.resolve(raw, current);
    if ('refusal' in resolved) return refuseItem(item, ref, resolved.refusal, label);
    return run(item, ref, (s) => step(s, resolved.item), label);
  };

  input.ledger?.forEach((fact, i) => {
    const item = `ledger[${i}]`;
    const bad = citations.badLabel(fact.label, current, fact.action === 'supersede' ? fact.factId : undefined);
    if (bad) return refuseItem(item, fact.factId, bad, fact.label);
    const before = current.ledger.length;
    if (cite(item, fact.factId, fact, (s, f) => ledgerUpdate(s, f, ctx), fact.label)) {
      const named = citations.added(fact.label, before, current, fact.factId);
      if (named) effects.push(named);
    }
  });
  input.reading?.forEach((c, i) => cite(`reading[${i}]`, undefined, c, (s, r) => correctReading(s, r, ctx)));
  input.points?.forEach((p, i) => cite(`points[${i}]`, p.id, p, (s, r) => judgePoint(r, ctx)(s)));
  input.challenges?.forEach((c, i) => {
    cite(`challenges[${i}]`, c.id, c, (s, { id, ...rest }) => challengeResolve(s, { ...rest, challengeId: id }, ctx));
  });
  if (input.stressTest) cite('stressTest', undefined, input.stressTest, (s, r) => stressTestRecord(s, r, ctx));
  input.questions?.forEach((q, i) => cite(`questions[${i}]`, undefined, q, (s, r) => askUser(s, r, ctx)));

  const phase = input.phase;
  if (phase?.stressTestWarranted) run('phase.stressTestWarranted', undefined, (s) => warrantStressTest(s, ctx));
  if (phase?.advance || phase?.trivial) {
    if (refused.length) effects.push(`no advance: ${refused.length} item(s) refused; send them again, corrected, with phase.advance`);
    else {
      const from = effects.length;
      run('phase', undefined, (s) => iterationAdvance(s, { trivial: phase.trivial }, ctx));
      // The warrant recorded in this same judgment has just said why the test waits; an advance that asks for it has the last word.
      if (phase.stressTestWarranted) {
        const asked = effects.slice(from).some((e) => e.startsWith('stress test required'));
        const said = (e: string, i: number) => (asked ? i >= from || !e.startsWith('stress test warranted; not yet') : i < from || !e.startsWith('stress test warranted but not run'));
        effects.splice(0, Infinity, ...effects.filter(said));
      }
    }
  }
  if (input.synthesis) {
    if (current.status !== 'terminated' && !refused.length && current.n !== state.n && !current.replyRecorded) {
      current = { ...current, heldSynthesis: input.synthesis };
      effects.push(HELD);
    } else if (current.status !== 'terminated') effects.push('synthesis not applied: the deliberation continues');
    else if (refused.length) effects.push('synthesis not applied: some items were refused');
    else cite('synthesis', undefined, input.synthesis, (s, r) => synthesize(s, r, ctx));
    // The synthesis this judgment carried is done: the advance's "synthesize" is no longer a task.
    if (current.report) effects.forEach((e, i) => e.startsWith(CONVERGED) && (effects[i] = 'converged'));
  }
  // The report is rendered from the state: one already built follows later changes (a bucket moved, a fact verified).
  if (current !== state && current.report && state.report && !input.synthesis) effects.push('report rebuilt');
  // What is legal is said of the state this judgment leaves: later items may have changed it.
  const legal = refused.map((r) => ({ ...r, ...(r.ref ? { ref: normaliseId(r.ref) } : {}), ...refusalLegal(current, r.ref) }));
  // A judgment that changed nothing leaves the state as it was: no new revision, audited as unchanged.
  if (current === state || sameState(current, state)) return { ok: true, state, effects, refused: legal };
  return { ...(accept(current, effects, ctx) as Extract<MoveResult, { ok: true }>), refused: legal };
}

/** The actions legal now for a point or challenge item, else the tools legal now; never an empty list without why. */
function refusalLegal(state: DeliberationState, ref: string | undefined): ItemLegal {
  const forRef = itemLegal(state, ref);
  if (forRef) return forRef;
  const tools = [...new Set(nextLegalMoves(state).map((m) => m.move))];
  return tools.length ? { legal: tools } : { legal: tools, whyNone: 'the deliberation is over and its record complete: nothing more can change it' };
}

const sameState = (a: DeliberationState, b: DeliberationState) => JSON.stringify({ ...a, updatedAt: b.updatedAt }) === JSON.stringify(b);

/** Applies steps in order as one: the first refusal refuses them all. */
function chain(state: DeliberationState, steps: Step[]): MoveResult {
  let current = state;
  const effects: string[] = [];
  for (const step of steps) {
    const result = step(current);
    if (!result.ok) return result;
    current = result.state;
    effects.push(...result.effects);
  }
  return { ok: true, state: current, effects };
}

/** A question for the user the orchestrator surfaces itself: one asked inside a point, or its own. */
function askUser(s: DeliberationState, text: string, ctx: MoveContext): MoveResult {
  const guard = requireActive(s);
  if (guard) return guard;
  const next = draft(s);
  return accept(next, [`${surfaceQuestion(next, text.trim())} surfaced`], ctx);
}

function triage(s: DeliberationState, p: PointJudgment, ctx: MoveContext): MoveResult {
  const { id } = p;
  const point = findPoint(s, id);
  if (!point) return refuse(s, 'unknown-point', `No point ${id}.`);
  if (point.status !== 'pending-triage') {
    // A triage other than the recorded one cannot apply; dropping it silently would lose a decision.
    if (p.triage && p.triage !== point.triage) return refuse(s, 'already-triaged', `${id} is ${point.status}${point.triage ? ` (triaged ${point.triage})` : ''}, not waiting for triage.`);
    return { ok: true, state: s, effects: [] };
  }
  const given = p.triage ?? (p.verdict || p.bucket ? 'in-scope' : undefined);
  if (!given) return refuse(s, 'triage-first', `${id} awaits triage: give it a triage or a verdict (a verdict implies in-scope).`);
  // Else the triage would send it to Not Evaluated and the verdict be refused for a state the item never leaves.
  if (point.needsDecisive && !p.decisive && given === 'in-scope' && (p.verdict || p.bucket)) {
    return refuse(s, 'decisive-evidence', `${id} is evidence in CRYSTALLIZATION: a verdict needs decisive: true (it settles the exact claim); triaged alone, it goes to Not Evaluated.`);
  }
  const reason = given === 'in-scope' ? 'in scope of the question as asked' : (p.reason ?? p.crux ?? '');
  const result = pointTriage(s, { pointId: id, triage: given, reason, decisive: p.decisive }, ctx);
  // An in-scope triage implied by the verdict is no news; only where it sent the point is.
  if (result.ok && !p.triage && result.effects.every((e) => e.endsWith('evaluate it'))) return { ...result, effects: [] };
  return result;
}

/** The orchestrator records that a point replaces an earlier one: the earlier one becomes history. */
function replace(s: DeliberationState, id: string, old: string, ctx: MoveContext): MoveResult {
  const guard = requireActive(s);
  if (guard) return guard;
  const current = findPoint(s, id);
  if (current?.supersedes === old) return { ok: true, state: s, effects: [] };
  const blocked = supersessionBlocker(s, id, old);
  if (blocked) return refuse(s, 'unknown-version', `${id} cannot replace ${old}: ${blocked}.`);
  const next = draft(s);
  return accept(next, [supersede(next, id, old, 'orchestrator')], ctx);
}

/**
 * What a point now claims: in quick mode after its answer gave part of it up (the reading could not cut it
 * out), and in every mode the narrower claim the orchestrator agrees with (its wording stands in the record,
 * the consultee's stays as history), without another round.
 */
function restate(s: DeliberationState, p: PointJudgment, ctx: MoveContext): MoveResult {
  const point = findPoint(s, p.id);
  if (!point) return refuse(s, 'unknown-point', `No point ${p.id}.`);
  const conceded = s.mode === 'quick' && (point.answer === 'partial' || point.answer === 'unclear');
  const agreeing = p.verdict === 'AGREE' || (p.bucket === 'agreed' && !p.verdict);
  if (!conceded && !agreeing) {
    return refuse(s, 'nothing-to-restate', `claim states what ${p.id} is agreed as: give it with verdict AGREE (or bucket agreed)${s.mode === 'quick' ? ', or after an answer that gave part of the point up' : ''}.`);
  }
  const next = draft(s);
  Object.assign(findPoint(next, p.id) as Point, { narrowed: p.claim!.trim(), ...(conceded ? { answer: 'partial' } : { narrowedBy: 'orchestrator' }) });
  return accept(next, [`${p.id} now claims: as you stated it`], ctx);
}

/** A narrowed claim is a claim: a quick point whose answer kept only part of it is Agreed as that part, stated. */
function narrowedStated(s: DeliberationState, p: PointJudgment): MoveResult | undefined {
  const point = findPoint(s, p.id);
  if (p.bucket !== 'agreed' || !point || point.narrowed || (point.answer !== 'partial' && point.answer !== 'unclear')) return undefined;
  return refuse(s, 'narrowed-claim-required', `${p.id}'s answer gave part of the claim up and parley could not cut out what it keeps: give claim (the claim as it now stands) with the bucket.`);
}

/** AGREE again on the same evidence only to state the claim narrower: the claim was the change, not a repeat. */
function sameAgreementRestated(p: PointJudgment, s: DeliberationState, result: MoveResult): MoveResult {
  if (!result.ok && result.refusal.rule === 'already-placed' && p.claim?.trim() && p.verdict === 'AGREE') return { ok: true, state: s, effects: [] };
  return result;
}

/** One point item is one step (supersession, claim, triage, verdict, bucket in that order): a refused item changes nothing. */
function judgePoint(p: PointJudgment, ctx: MoveContext): Step {
  const { id } = p;
  const steps: Step[] = [];
  if (p.supersedes) steps.push((s) => replace(s, id, p.supersedes!, ctx));
  if (p.claim?.trim()) steps.push((s) => restate(s, p, ctx));
  steps.push((s) => narrowedStated(s, p) ?? { ok: true, state: s, effects: [] });
  steps.push((s) => triage(s, p, ctx));
  if (p.verdict) {
    steps.push((s) =>
      sameAgreementRestated(p, s, pointEvaluate(s, { pointId: id, classification: p.verdict!, flaw: p.flaw, terminalWhy: p.terminalWhy, revision: p.revision, contradicts: p.contradicts, claimType: p.claimType, evidenceType: p.evidenceType, evidence: p.evidence, premises: p.premises, reason: p.reason, rerun: p.rerun }, ctx)),
    );
  }
  if (p.bucket) {
    steps.push((s) => {
      // The verdict of this same item placed it there: the bucket confirms it. Without one it is a move of its own.
      if (p.verdict && findPoint(s, id)?.status === p.bucket) return { ok: true, state: s, effects: [] };
      return bucketAssign(s, { pointId: id, bucket: p.bucket!, tag: p.tag, status: p.status, crux: p.crux, measurement: p.measurement, threshold: p.threshold, verdictChange: p.verdictChange, revision: p.revision, claimType: p.claimType, evidenceType: p.evidenceType, evidence: p.evidence, premises: p.premises, reason: p.reason, rerun: p.rerun }, ctx);
    });
  }
  return (s) => {
    const result = chain(s, steps);
    // Only a triage that repeats the recorded one gets here unchanged: say so rather than nothing.
    if (result.ok && result.state === s) return { ...result, effects: [`${findPoint(s, id)?.id ?? id} unchanged: already triaged ${findPoint(s, id)?.triage ?? ''}`.trim()] };
    return result;
  };
}
