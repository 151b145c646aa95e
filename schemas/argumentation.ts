import { z } from 'zod';
import { Usage } from './common.js';

/** Persisted state of one argumentation deliberation (seed 001). Bump schemaVersion on any breaking change. */

export const Mode = z.enum(['standard', 'minimal', 'quick']);
export type Mode = z.infer<typeof Mode>;

/** The ten deliberation flows: who proposes first and the adversarial stance. */
export const Framing = z.enum([
  'consultee-proposes',
  'critique-design',
  'devils-advocate',
  'fill-gaps',
  'compare',
  'validate-reasoning',
  'user-vs-orchestrator',
  'synthesize-stakeholders',
  'red-team',
  'parallel-ideation',
]);
export type Framing = z.infer<typeof Framing>;

export const Phase = z.enum(['CONSTRUCTIVE', 'DEVELOPMENT', 'CRYSTALLIZATION']);
export type Phase = z.infer<typeof Phase>;

export const ProvenanceTag = z.enum(['user', 'verified', 'codex-unverified', 'revision']);
export type ProvenanceTag = z.infer<typeof ProvenanceTag>;

export const Classification = z.enum(['AGREE', 'SKEPTICAL', 'REJECT', 'ILL-FORMED']);
export type Classification = z.infer<typeof Classification>;

/** deduction: a logical claim that follows from ledger facts (user or verified) cited as premises. */
export const EvidenceType = z.enum(['execution', 'textual', 'deduction', 'n/a']);
export type EvidenceType = z.infer<typeof EvidenceType>;

export const ClaimType = z.enum(['empirical', 'value', 'logical']);
export type ClaimType = z.infer<typeof ClaimType>;

export const ReplyLabel = z.enum(['EVIDENCE', 'INFERENCE', 'GUESS']);
export type ReplyLabel = z.infer<typeof ReplyLabel>;

export const ChallengeType = z.enum(['SKEPTICAL', 'REJECT']);
export type ChallengeType = z.infer<typeof ChallengeType>;

/** open: awaiting a reply; defended: referenced, awaiting the orchestrator's judgment; resolved: judged. */
export const ChallengeStatus = z.enum(['open', 'defended', 'dropped', 'undefended', 'conceded', 'resolved']);
export type ChallengeStatus = z.infer<typeof ChallengeStatus>;

export const DismissTag = z.enum([
  'REJECTED',
  'CONCEDED',
  'UNDEFENDED',
  'OUT-OF-SCOPE',
  'FALSE',
  'RISKY',
  'VIOLATES-CONSTRAINT',
]);
export type DismissTag = z.infer<typeof DismissTag>;

export const UnresolvedStatus = z.enum(['blocked', 'tradeoff', 'definitional', 'pending-anchor-shift', 'open-at-end']);
export type UnresolvedStatus = z.infer<typeof UnresolvedStatus>;

/**
 * superseded: a later point replaced, corrected or narrowed it (history, no longer a claim).
 * part-of-answer: an item inside an answer, judged with that answer rather than as a claim of its own.
 */
export const PointStatus = z.enum([
  'pending-triage',
  'pending-evaluation',
  'clarification-requested',
  'contested',
  'agreed',
  'dismissed',
  'unresolved',
  'not-evaluated',
  'superseded',
  'part-of-answer',
]);
export type PointStatus = z.infer<typeof PointStatus>;

export const NotEvaluatedReason = z.enum([
  'phase-violation',
  'phase-closed',
  'non-decisive-evidence',
  'unverified-fact',
  'ill-formed',
]);
export type NotEvaluatedReason = z.infer<typeof NotEvaluatedReason>;

export const TerminationReason = z.enum(['convergence', 'iteration-cap', 'early-exit-trivial', 'early-exit-quality']);
export type TerminationReason = z.infer<typeof TerminationReason>;

export const Fact = z.object({
  id: z.string(),
  text: z.string(),
  tag: ProvenanceTag,
  reference: z.string().optional(),
  justification: z.string().optional(),
  supersedes: z.string().optional(),
  supersededBy: z.string().optional(),
  splitFrom: z.string().optional(),
  refuted: z.boolean().optional(),
  /** The name the orchestrator cites it by (@name), in the judgment that added it and any later one. */
  label: z.string().optional(),
  addedIter: z.number().int(),
  changedIter: z.number().int(),
});
export type Fact = z.infer<typeof Fact>;



export const Challenge = z.object({
  id: z.string(),
  pointId: z.string(),
  type: ChallengeType,
  objection: z.string(),
  /** Start of the current defense round; openedIter never moves (deadlock counts from it). */
  raisedIter: z.number().int(),
  openedIter: z.number().int(),
  status: ChallengeStatus,
  reminderSent: z.boolean(),
  defense: z.string().optional(),
  defenseIter: z.number().int().optional(),
  /** The defense conceded part of the claim; narrowedClaim is what it keeps, when the reading could cut it out. */
  partial: z.boolean().optional(),
  narrowedClaim: z.string().optional(),
  /** The reading could not tell a full concession from a partial one: the orchestrator decides. */
  unclear: z.boolean().optional(),
  /** The numbered items of its answers (point ids), in reply order. */
  items: z.array(z.string()).optional(),
  /** The answer's words outside its items, when it has items (the items are points of their own). */
  answerOwnWords: z.string().optional(),
  /** What the consultee said in each of its answers (its own words, items aside), one per iteration: the report quotes them. */
  answers: z.array(z.object({ iter: z.number().int(), text: z.string() })).optional(),
  droppedIter: z.number().int().optional(),
  rebuttal: z.string().optional(),
  /** What the verdict that opened it rests on (the orchestrator's evidence, and for a REJECT why it is terminal): quoted to the consultee. */
  evidence: z.string().optional(),
  terminalWhy: z.string().optional(),
  clarificationRequested: z.boolean(),
  /**
   * superseded: the point was replaced, the objection left standing or moot; conceded-by-replacement: replaced
   * after an answer that gave part of the claim up (the new version is what the consultee still claims).
   */
  resolution: z.enum(['accepted', 'rejected', 'blocked', 'tradeoff', 'definitional', 'open-at-end', 'superseded', 'conceded-by-replacement']).optional(),
});
export type Challenge = z.infer<typeof Challenge>;

export const Position = z.object({
  pointId: z.string(),
  classification: Classification,
  iter: z.number().int(),
  flaw: z.string().optional(),
  /** A SKEPTICAL or REJECT verdict's evidence and terminal why: what the consultee must answer, not only the flaw. */
  evidence: z.string().optional(),
  terminalWhy: z.string().optional(),
  revision: z.object({ from: Classification, because: z.string() }).optional(),
});
export type Position = z.infer<typeof Position>;

export const AgreedItem = z.object({
  pointId: z.string(),
  claimType: ClaimType,
  evidenceType: EvidenceType,
  evidence: z.string().optional(),
  /** Logical claims: the user or verified facts they follow from. */
  premises: z.array(z.string()).optional(),
  reason: z.string(),
  /** The evidence is the orchestrator's re-run of the command the consultee cited (what it saw), not a check of its own. */
  rerun: z.boolean().optional(),
  iter: z.number().int(),
});
export type AgreedItem = z.infer<typeof AgreedItem>;

export const DismissedItem = z.object({ pointId: z.string(), tag: DismissTag, reason: z.string(), iter: z.number().int() });
export type DismissedItem = z.infer<typeof DismissedItem>;

export const UnresolvedItem = z.object({
  pointId: z.string(),
  status: UnresolvedStatus,
  crux: z.string(),
  measurement: z.string().optional(),
  threshold: z.string().optional(),
  verdictChange: z.string().optional(),
  iter: z.number().int(),
});
export type UnresolvedItem = z.infer<typeof UnresolvedItem>;

/** ref is a point id (P..) or a fact id (F..). */
export const NotEvaluatedItem = z.object({
  ref: z.string(),
  reason: NotEvaluatedReason,
  note: z.string().optional(),
  iter: z.number().int(),
});
export type NotEvaluatedItem = z.infer<typeof NotEvaluatedItem>;

export const SurfacedQuestion = z.object({
  id: z.string(),
  text: z.string(),
  pointId: z.string().optional(),
  iter: z.number().int(),
});
export type SurfacedQuestion = z.infer<typeof SurfacedQuestion>;

export const StressTest = z.object({
  required: z.boolean(),
  /** The orchestrator said the stakes warrant one (it becomes required once it may run). */
  warranted: z.boolean().optional(),
  objection: z.string().optional(),
  /** none: the consultee, asked for its strongest objection, had none. */
  severity: z.enum(['fatal', 'unresolved', 'mitigable', 'none']).optional(),
  /** Required, but CONSTRUCTIVE ended before it was recorded. */
  lapsed: z.boolean().optional(),
  response: z.string().optional(),
  iter: z.number().int().optional(),
});
export type StressTest = z.infer<typeof StressTest>;

export const ArbitrationFlag = z.object({ ref: z.string(), flagged: z.boolean(), note: z.string().optional() });
export const Arbitration = z.object({
  items: z.array(ArbitrationFlag),
  /** The arbiter's general remarks beyond the per-item lines. */
  remarks: z.string().optional(),
  reviewer: z.string().optional(),
  flaggedRatio: z.number(),
  warning: z.boolean(),
  recordedAt: z.string(),
});
export type Arbitration = z.infer<typeof Arbitration>;

/** A point's place before it was superseded or folded into an answer: its status and bucket entry. */
export const PointPlacement = z.object({
  status: PointStatus,
  iter: z.number().int(),
  /** A challenge on it that the replacement closed, and the status it had. */
  challenge: z.object({ id: z.string(), status: ChallengeStatus }).optional(),
  agreed: AgreedItem.optional(),
  dismissed: DismissedItem.optional(),
  unresolved: UnresolvedItem.optional(),
  notEvaluated: NotEvaluatedItem.optional(),
});
export type PointPlacement = z.infer<typeof PointPlacement>;

export const Point = z.object({
  id: z.string(),
  iter: z.number().int(),
  text: z.string(),
  label: ReplyLabel.optional(),
  source: z.enum(['consultee', 'stress-test']),
  status: PointStatus,
  triage: z.enum(['in-scope', 'out-of-scope', 'anchor-shift', 'new-argument']).optional(),
  needsDecisive: z.boolean().optional(),
  clarification: z.string().optional(),
  /** The consultee's own number for the point in its reply. */
  number: z.number().int().optional(),
  /** Earlier points it extends, and challenges it mentions (P1.2, C1). */
  refs: z.array(z.string()).optional(),
  /** Quick mode: the consultee's answer to the orchestrator's objection. */
  defense: z.string().optional(),
  /** A partial concession accepted: the claim as narrowed by the consultee; or the narrower claim the orchestrator agreed with. */
  narrowed: z.string().optional(),
  /** The orchestrator agreed with less than the point says and stated what (its wording; the consultee's stays as history). */
  narrowedBy: z.literal('orchestrator').optional(),
  /** Quick mode: how the answer to the objection was read (unclear: full or partial concession, the orchestrator says). */
  answer: z.enum(['defense', 'partial', 'unclear']).optional(),
  /** Quick mode: the answer's words outside its items, when it has items. */
  answerOwnWords: z.string().optional(),
  /** An item inside the answer to this challenge (or, in quick mode, to this point's objection). */
  partOf: z.string().optional(),
  /** The earlier point this one replaces, corrects or narrows, and who said so. */
  supersedes: z.string().optional(),
  supersededOn: z.enum(['consultee', 'orchestrator']).optional(),
  /** Replaced by this later point: history now, no longer a claim. */
  supersededBy: z.string().optional(),
  /** Where a superseded (or folded) point stood before, so the record keeps it and an undo restores it. */
  was: PointPlacement.optional(),
});
export type Point = z.infer<typeof Point>;

/** A part of a reply parley could not apply with certainty: the orchestrator confirms or corrects it. */
export const PendingReading = z.object({
  /**
   * S<k> section, U<k> question for the user, A<k> answer it could not match, M<k> or the point id (mention),
   * R<k> a reference to an id that names nothing (target: the id as written).
   */
  ref: z.string(),
  kind: z.enum(['section', 'question', 'answer', 'mention', 'reference']),
  text: z.string(),
  title: z.string().optional(),
  /** mention: the open challenge (quick: the contested point) it names; answer: the id it named. */
  target: z.string().optional(),
  resolved: z.enum(['point', 'question', 'defense', 'partial', 'concession']).optional(),
});
export type PendingReading = z.infer<typeof PendingReading>;

/** One of the reply's own numbers that became no point: an answer ("6. Re P1.6: ..."), a question for the user, "No further points". */
export const NumberNotPoint = z.object({
  number: z.number().int(),
  as: z.enum(['answer', 'question', 'nothing-further']),
  /** answer: the ids it answers, as the reply named them. */
  refs: z.array(z.string()).optional(),
});
export type NumberNotPoint = z.infer<typeof NumberNotPoint>;

export const ReplyReading = z.object({
  iter: z.number().int(),
  headline: z.string().optional(),
  nothingFurther: z.boolean(),
  pending: z.array(PendingReading),
  numbersNotPoints: z.array(NumberNotPoint).optional(),
});
export type ReplyReading = z.infer<typeof ReplyReading>;

export const ConfidenceLevel = z.enum(['high', 'medium', 'low']);
export type ConfidenceLevel = z.infer<typeof ConfidenceLevel>;

/** Confidence in aspects of the answer where it differs from the whole: {"the deployment": "medium"}. */
export const ConfidenceAspects = z.record(z.string(), ConfidenceLevel);
export type ConfidenceAspects = z.infer<typeof ConfidenceAspects>;

export const Recommendation = z.object({
  text: z.string(),
  confidence: ConfidenceLevel,
  aspects: ConfidenceAspects.optional(),
  caveats: z.array(z.string()),
});
export type Recommendation = z.infer<typeof Recommendation>;

/** The orchestrator's answer to the user's question, as it gives it (delib_synthesize, a judgment's synthesis). */
export const Synthesis = z.object({
  recommendation: z.string().min(1).describe("your answer to the user's question"),
  confidence: Recommendation.shape.confidence,
  aspects: ConfidenceAspects.optional(),
  caveats: z.array(z.string()).optional(),
});
export type Synthesis = z.infer<typeof Synthesis>;

export const Termination = z.object({ reason: TerminationReason, iter: z.number().int(), note: z.string() });
export type Termination = z.infer<typeof Termination>;

export const DeliberationState = z.object({
  schemaVersion: z.literal(1),
  id: z.string(),
  mode: Mode,
  framing: Framing,
  /** Verbatim; never rewritten (anchor preservation). */
  question: z.string(),
  material: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  n: z.number().int().min(1).max(8),
  /** null in quick mode (no phases). */
  phase: Phase.nullable(),
  extendedConstructive: z.boolean(),
  /** A valid consultee reply for iteration n has been recorded. */
  replyRecorded: z.boolean(),
  ledger: z.array(Fact),
  challenges: z.array(Challenge),
  points: z.array(Point),
  buckets: z.object({
    agreed: z.array(AgreedItem),
    dismissed: z.array(DismissedItem),
    unresolved: z.array(UnresolvedItem),
  }),
  notEvaluated: z.array(NotEvaluatedItem),
  surfacedQuestions: z.array(SurfacedQuestion),
  positions: z.array(Position),
  counters: z.object({
    consecutiveFormatFailures: z.number().int(),
    totalFormatFailures: z.number().int(),
    lastFailure: z.string().optional(),
  }),
  scope: z.object({ newPoints: z.number().int(), disputedAtLastAdvance: z.array(z.string()) }),
  stressTest: StressTest,
  arbitration: Arbitration.optional(),
  consulteeSessionId: z.string().optional(),
  /** The consultee thread's cumulative token usage after the last reply, so a resumed turn counts only itself. */
  consulteeCumulativeUsage: Usage.optional(),
  /** How parley read each reply (headline, parts awaiting the orchestrator's decision). */
  readings: z.array(ReplyReading).optional(),
  /** Ledger entries as the consultee last saw them ("F3:verified"), so a prompt sends only changes. */
  consulteeSeen: z.array(z.string()).optional(),
  /** The orchestrator's answer, given at synthesis. */
  recommendation: Recommendation.optional(),
  /**
   * A synthesis the orchestrator gave with a judgment that went on to another iteration: it ends the
   * deliberation if Codex's next reply has nothing further and leaves nothing to judge (so convergence
   * needs no call of its own); any other reply drops it.
   */
  heldSynthesis: Synthesis.optional(),
  status: z.enum(['active', 'terminated']),
  termination: Termination.optional(),
  /**
   * Set by synthesis: the report exists. It is rendered from the state on demand (summary, Markdown,
   * decision record), so it cannot go stale; files written before kept its JSON and Markdown here,
   * which are read and dropped.
   */
  report: z.object({ synthesizedAt: z.string().optional() }).optional(),
});
export type DeliberationState = z.infer<typeof DeliberationState>;
