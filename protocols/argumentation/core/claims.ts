import type { DeliberationState, Point } from '../../../schemas/argumentation.js';
import { findPoint } from './queries.js';

/**
 * The record as claims: which points are claims now, what each says as it now stands, and the
 * versions it replaced. Every view, report and prompt states a claim through these, so none can show
 * a replaced version as current.
 */

/** A point that is a claim of its own now: not replaced by a later one, not folded into an answer. */
export function isCurrent(point: Point): boolean {
  return point.status !== 'superseded' && point.status !== 'part-of-answer';
}

export function currentPoints(state: DeliberationState): Point[] {
  return state.points.filter(isCurrent);
}

/** The claim as it now stands: narrowed by an accepted partial concession, else as written. */
export function claimText(point: Point, state?: DeliberationState): string {
  const kept = point.narrowed && state ? KEPT_BY_ITEMS.exec(point.narrowed) : null;
  if (kept && state) return keptByItemsClaim((kept[1] ?? '').split(', ').map((id) => currentVersion(state, id)?.id ?? id));
  return point.narrowed ?? point.text;
}

/** A narrowed claim that is the list of items Codex numbered under "what I still claim". */
export const keptByItemsClaim = (ids: string[]) => `as stated in ${ids.join(', ')}`;
// Given the state, the items are named by their current versions: a refined item is cited as its refinement.
const KEPT_BY_ITEMS = /^as stated in (P\d+\.\d+(?:, P\d+\.\d+)*)$/;

/** The versions a point replaced, newest first (P5.2 replaced P4.5, which replaced P3.1). */
export function replacedVersions(state: DeliberationState, pointId: string): Point[] {
  const out: Point[] = [];
  const seen = new Set<string>([pointId]);
  let current = findPoint(state, pointId);
  while (current?.supersedes && !seen.has(current.supersedes)) {
    seen.add(current.supersedes);
    const older = findPoint(state, current.supersedes);
    if (!older) break;
    out.push(older);
    current = older;
  }
  return out;
}

/** The point that now stands for this one: itself, or the last version that replaced it. */
export function currentVersion(state: DeliberationState, pointId: string): Point | undefined {
  const seen = new Set<string>();
  let point = findPoint(state, pointId);
  while (point?.supersededBy && !seen.has(point.id)) {
    seen.add(point.id);
    point = findPoint(state, point.supersededBy) ?? point;
  }
  return point;
}

/** The items of a challenge's answers (or, in quick mode, of the answer to a point's objection). */
export function answerItems(state: DeliberationState, ref: string): Point[] {
  return state.points.filter((p) => p.partOf === ref);
}
