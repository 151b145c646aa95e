import type { Challenge, DeliberationState, NotEvaluatedReason, Point } from '../../../schemas/argumentation.js';
import { challengeOnPoint, DEADLOCK_ROUNDS, findChallenge, findPoint, iterationCap, lastPosition } from '../core/queries.js';
import { normaliseChallengeId, normaliseId, normalisePointId } from '../core/references.js';

/** Point statuses a verdict can (re)classify. */
export const EVALUABLE: Point['status'][] = ['pending-evaluation', 'clarification-requested', 'contested', 'agreed', 'dismissed', 'unresolved'];

const SET_ASIDE: Record<NotEvaluatedReason, string> = {
  'phase-violation': 'a new argument after CONSTRUCTIVE stays out of the buckets',
  'phase-closed': 'CRYSTALLIZATION admits no new argument',
  'non-decisive-evidence': 'evidence in CRYSTALLIZATION that is not decisive changes no bucket',
  'unverified-fact': 'an unverified fact is listed, not judged',
  'ill-formed': 'its clarification never came before the end',
};

/**
 * Why no verdict and no bucket can reach this point now, or undefined. pointActions offers nothing then,
 * and the verdict and bucket moves refuse with this same sentence, so a refusal never points to a refused move.
 */
export function pointClosedWhy(state: DeliberationState, point: Point): string | undefined {
  const challenge = challengeOnPoint(state, point.id);
  if (challenge) {
    const actions = challengeActions(state, challenge.id);
    const way = actions.length ? `a verdict on ${challenge.id} (${actions.join('|')})` : `the consultee's answer to ${challenge.id} in the next reply`;
    return `${point.id} is under ${challenge.id} (${challenge.status}): it leaves through ${way}, not by a verdict or bucket of its own`;
  }
  if (point.status === 'not-evaluated') {
    const item = state.notEvaluated.find((i) => i.ref === point.id);
    return `${point.id} is Not Evaluated${item ? ` (${item.reason}: ${SET_ASIDE[item.reason]})` : ''}; the report lists it there`;
  }
  if (point.status === 'superseded') return `${point.id} was replaced by ${point.supersededBy ?? 'a later point'}: judge that one instead`;
  if (point.status === 'part-of-answer') return `${point.id} is an item of the answer to ${point.partOf ?? 'a challenge'}: it is judged with that answer`;
  if (point.status === 'dismissed' && point.triage === 'out-of-scope') return `${point.id} was dismissed as out of scope by its triage: it is not judged on its merits`;
  return undefined;
}

/**
 * What a delib_judge item may do now for one point: "triage", "verdict", "bucket". Refusals list
 * these, so every action a refusal suggests is one the engine accepts for some arguments.
 */
export function pointActions(state: DeliberationState, pointId: string): string[] {
  const point = findPoint(state, pointId);
  if (!point) return [];
  const active = state.status === 'active';
  if (point.status === 'pending-triage') return active ? ['triage', 'verdict'] : [];
  if (pointClosedWhy(state, point)) return [];
  const out: string[] = [];
  if (active && EVALUABLE.includes(point.status)) out.push('verdict');
  if (lastPosition(state, point.id)) out.push('bucket');
  return out;
}

/** The verdicts a delib_judge challenge item may give now. */
export function challengeActions(state: DeliberationState, challengeId: string): string[] {
  const c = findChallenge(state, challengeId);
  if (!c || state.status !== 'active' || state.mode === 'quick') return [];
  const out: string[] = [];
  if (c.status === 'defended') out.push('accepted', 'rejected', ...(c.type === 'SKEPTICAL' ? ['rebutted'] : []));
  if (['open', 'dropped', 'defended'].includes(c.status) && deadlockAllowed(state, c)) out.push('deadlock');
  return out;
}

export function deadlockAllowed(state: DeliberationState, c: Challenge): boolean {
  return state.n - c.openedIter >= DEADLOCK_ROUNDS || state.n >= iterationCap(state);
}

/** What an item refusal tells the orchestrator it may do with that ref now, or plainly why nothing. */
export interface ItemLegal {
  legal: string[];
  whyNone?: string;
}

const some = (ids: string[]) => (ids.length > 12 ? `${ids.slice(0, 12).join(', ')}, ...` : ids.join(', ')) || 'none yet';

function pointLegal(state: DeliberationState, ref: string): ItemLegal {
  const point = findPoint(state, ref);
  if (!point) return { legal: [], whyNone: `there is no point ${normaliseId(ref)} (the points are ${some(state.points.map((p) => p.id))})` };
  const legal = pointActions(state, point.id);
  if (legal.length) return { legal };
  const ended = `the deliberation ended (${state.termination?.reason ?? 'terminated'}) before ${point.id} had a verdict: it stays ${point.status}`;
  return { legal, whyNone: pointClosedWhy(state, point) ?? ended };
}

function challengeLegal(state: DeliberationState, ref: string): ItemLegal {
  const c = findChallenge(state, ref);
  if (!c) return { legal: [], whyNone: `there is no challenge ${normaliseId(ref)} (the challenges are ${some(state.challenges.map((x) => x.id))})` };
  const legal = challengeActions(state, c.id);
  if (legal.length) return { legal };
  if (state.status !== 'active') return { legal, whyNone: `the deliberation ended: ${c.id} is judged no more (an open one is listed as open at the end)` };
  if (c.status === 'open' || c.status === 'dropped') {
    const from = Math.min(c.openedIter + DEADLOCK_ROUNDS, iterationCap(state));
    return { legal, whyNone: `${c.id} is ${c.status}: nothing to judge until the consultee answers it in a reply; deadlock becomes possible at iteration ${from}` };
  }
  return { legal, whyNone: `${c.id} is settled (${c.resolution ?? c.status})` };
}

/** Legal actions for a point or challenge ref, with why none when none; undefined when the ref is neither. */
export function itemLegal(state: DeliberationState, ref: string | undefined): ItemLegal | undefined {
  if (!ref) return undefined;
  if (normalisePointId(ref)) return pointLegal(state, ref);
  if (normaliseChallengeId(ref)) return challengeLegal(state, ref);
  return undefined;
}
