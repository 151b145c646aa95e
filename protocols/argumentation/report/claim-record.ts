import type { AgreedItem, DeliberationState, DismissedItem, Point, UnresolvedItem } from '../../../schemas/argumentation.js';
import { answerItems, claimText, currentPoints, isCurrent, replacedVersions } from '../core/claims.js';
import { findPoint } from '../core/queries.js';
import { scratchPaths, type ScratchNeutraliser } from '../core/scratch-paths.js';

/**
 * The record as every rendering states it (full report, summary, decision record, the stale check):
 * each bucket's current claims in the order they were raised, each with the versions it replaced and
 * the items folded into the answers made for it. One place, so no rendering can disagree.
 */

export interface ClaimEntry<T> {
  point: Point;
  /** What the claim now says (narrowed, or as written). */
  text: string;
  item: T;
  /** Older versions it replaced, newest first. */
  replaced: Point[];
  /** Items folded into an answer made for it (or for a version it replaced), by that answer's id. */
  parts: { answer: string; items: Point[] }[];
  /** Text about the claim as a rendering may state it: the consultee's scratch paths said as such (text already is). */
  say: ScratchNeutraliser;
}

export interface BucketClaims {
  agreed: ClaimEntry<AgreedItem>[];
  dismissed: ClaimEntry<DismissedItem>[];
  unresolved: ClaimEntry<UnresolvedItem>[];
}

export type BucketName = keyof BucketClaims;
export const BUCKETS: readonly BucketName[] = ['agreed', 'dismissed', 'unresolved'];

/** The answers that can hold items for a claim: the challenges on it, and in quick mode the point itself. */
function foldedParts(state: DeliberationState, point: Point, replaced: Point[]): ClaimEntry<unknown>['parts'] {
  const ids = [point, ...replaced].flatMap((p) => [...state.challenges.filter((c) => c.pointId === p.id).map((c) => c.id), p.id]);
  return ids.map((answer) => ({ answer, items: answerItems(state, answer).filter((p) => p.status === 'part-of-answer') })).filter((part) => part.items.length);
}

function entries<T extends { pointId: string }>(state: DeliberationState, items: T[], say: ScratchNeutraliser): ClaimEntry<T>[] {
  const order = new Map(state.points.map((p, index) => [p.id, index]));
  // A claim keeps the place where its first version was raised.
  const rank = (e: ClaimEntry<T>) => Math.min(...[e.point, ...e.replaced].map((p) => order.get(p.id) ?? 0));
  return items
    .map((item) => ({ item, point: findPoint(state, item.pointId) }))
    .filter((e): e is { item: T; point: Point } => !!e.point && isCurrent(e.point))
    .map(({ item, point }) => {
      const replaced = replacedVersions(state, point.id);
      return { point, item, text: say(claimText(point, state)), replaced, parts: foldedParts(state, point, replaced), say };
    })
    .sort((x, y) => rank(x) - rank(y));
}

export function bucketClaims(state: DeliberationState): BucketClaims {
  const say = scratchPaths(state);
  return { agreed: entries(state, state.buckets.agreed, say), dismissed: entries(state, state.buckets.dismissed, say), unresolved: entries(state, state.buckets.unresolved, say) };
}

/** Current claims not placed yet (a report of a deliberation still under way lists them as in play). */
export function inPlay(state: DeliberationState): Point[] {
  const placed = new Set([...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].map((i) => i.pointId));
  const notEvaluated = new Set(state.notEvaluated.map((i) => i.ref));
  return currentPoints(state).filter((p) => !placed.has(p.id) && !notEvaluated.has(p.id));
}

/** What a point or fact id says now: a point's current claim, a fact's text. */
export function refText(state: DeliberationState, ref: string): string {
  const point = findPoint(state, ref);
  return point ? claimText(point, state) : (state.ledger.find((f) => f.id === ref)?.text ?? '');
}

/** Nothing was agreed or dismissed: the result is what would settle each unresolved item. */
export function isInconclusive(state: DeliberationState): boolean {
  const claims = bucketClaims(state);
  return !claims.agreed.length && !claims.dismissed.length;
}

/** What would settle each unresolved claim (an inconclusive result's answer). */
export function unblockLines(state: DeliberationState): string[] {
  return bucketClaims(state).unresolved.map(({ point, item: u }) =>
    u.measurement ? `${point.id}: measure ${u.measurement}${u.threshold ? ` (matters at ${u.threshold}${u.verdictChange ? `; ${u.verdictChange}` : ''})` : ''}` : `${point.id}: settle "${u.crux}"`,
  );
}
