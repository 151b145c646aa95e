import type { Challenge, DeliberationState, Point, Position } from '../../../schemas/argumentation.js';
import { claimText, replacedVersions } from '../core/claims.js';

/**
 * What changed during the deliberation, claim by claim: where Codex replaced, gave up or narrowed a claim,
 * and where the orchestrator agreed only with less than Codex wrote. Each change says what overturned the
 * claim (the objection and the evidence it rested on) and where it ended. A reversal on evidence is the
 * most telling thing a deliberation finds; "12 agreed" must never hide it.
 */

export interface Objection {
  flaw: string;
  evidence?: string;
}

export type ChangeKind = 'replaced' | 'conceded' | 'narrowed' | 'agreed-narrower';

export interface Change {
  kind: ChangeKind;
  /** The claim as first written (the oldest version). */
  before: Point;
  /** The claim now: the replacing point, or the narrowed wording. */
  after?: { point: Point; text: string };
  objection?: Objection;
  /** Where the claim ended: its bucket, if placed. */
  ended?: 'agreed' | 'dismissed' | 'unresolved';
}

function objectionOn(state: DeliberationState, points: Point[]): Objection | undefined {
  const ids = new Set(points.map((p) => p.id));
  const challenge: Challenge | undefined = [...state.challenges].reverse().find((c) => ids.has(c.pointId));
  if (challenge) return { flaw: challenge.objection, ...(challenge.evidence ? { evidence: challenge.evidence } : {}) };
  // Quick mode objects by position, without a challenge.
  const objected: Position | undefined = points.map((p) => lastObjection(state, p.id)).find(Boolean);
  return objected?.flaw ? { flaw: objected.flaw, ...(objected.evidence ? { evidence: objected.evidence } : {}) } : undefined;
}

function lastObjection(state: DeliberationState, pointId: string): Position | undefined {
  return [...state.positions].reverse().find((p) => p.pointId === pointId && (p.classification === 'SKEPTICAL' || p.classification === 'REJECT'));
}

function bucketOf(state: DeliberationState, pointId: string): Change['ended'] {
  if (state.buckets.agreed.some((i) => i.pointId === pointId)) return 'agreed';
  if (state.buckets.dismissed.some((i) => i.pointId === pointId)) return 'dismissed';
  if (state.buckets.unresolved.some((i) => i.pointId === pointId)) return 'unresolved';
  return undefined;
}

export function deliberationChanges(state: DeliberationState): Change[] {
  const changes: Change[] = [];
  for (const point of state.points) {
    if (point.status === 'superseded' || point.status === 'part-of-answer') continue;
    const older = replacedVersions(state, point.id);
    const ended = bucketOf(state, point.id);
    if (older.length) {
      const first = older[older.length - 1]!;
      changes.push({ kind: 'replaced', before: first, after: { point, text: claimText(point, state) }, objection: objectionOn(state, older), ended });
    }
    if (point.narrowed) {
      const kind = point.narrowedBy === 'orchestrator' ? 'agreed-narrower' : 'narrowed';
      changes.push({ kind, before: point, after: { point, text: claimText(point, state) }, objection: kind === 'narrowed' ? objectionOn(state, [point]) : undefined, ended });
    }
    const dismissal = state.buckets.dismissed.find((i) => i.pointId === point.id);
    if (dismissal?.tag === 'CONCEDED') changes.push({ kind: 'conceded', before: point, objection: objectionOn(state, [point]), ended: 'dismissed' });
  }
  return changes;
}
