import type { Challenge, DeliberationState, Fact, Phase, Point, Position } from '../../../schemas/argumentation.js';
import { resolveChallenge, resolveFact, resolvePoint } from './references.js';

export const ITERATION_CAP = 8;
export const QUICK_ITERATION_CAP = 2;
/** A challenge open this many iterations may be classified as deadlocked. */
export const DEADLOCK_ROUNDS = 3;

/** φ(n): the phase a plain iteration number implies (the stored phase stays authoritative). */
export function phaseFor(n: number): Phase {
  if (n <= 2) return 'CONSTRUCTIVE';
  if (n <= 5) return 'DEVELOPMENT';
  return 'CRYSTALLIZATION';
}

export function iterationCap(state: DeliberationState): number {
  return state.mode === 'quick' ? QUICK_ITERATION_CAP : ITERATION_CAP;
}

/** Consultee turns so far: one valid reply per finished iteration, this one's if recorded, and every format failure. */
export function consulteeTurns(state: DeliberationState): number {
  return state.n - 1 + (state.replyRecorded ? 1 : 0) + state.counters.totalFormatFailures;
}

/** Quick mode's two exchanges are a budget of consultee turns: a format failure spends one too. */
export function quickTurnsSpent(state: DeliberationState): boolean {
  return state.mode === 'quick' && consulteeTurns(state) >= QUICK_ITERATION_CAP;
}

/** This iteration's advance ends the deliberation whatever else holds: the cap, or quick mode's turns spent. */
export function lastIteration(state: DeliberationState): boolean {
  return state.n >= iterationCap(state) || quickTurnsSpent(state);
}

/** Whether this iteration's reply conceded the objection to the point (it went to Dismissed CONCEDED now). */
export function concededNow(state: DeliberationState, pointId: string): boolean {
  return state.buckets.dismissed.some((d) => d.pointId === pointId && d.iter === state.n && d.tag === 'CONCEDED');
}

/** Lookups by id as written: the resolver (references.ts) normalises it first. */
export const findPoint = resolvePoint;
export const findFact = resolveFact;
export const findChallenge = resolveChallenge;

export function activeFacts(state: DeliberationState): Fact[] {
  return state.ledger.filter((f) => !f.supersededBy && !f.refuted);
}

/** Challenges still waiting for the consultee or for the orchestrator's judgment. */
export function unsettledChallenges(state: DeliberationState): Challenge[] {
  return state.challenges.filter((c) => c.status === 'open' || c.status === 'dropped' || c.status === 'defended');
}

export function challengeOnPoint(state: DeliberationState, pointId: string): Challenge | undefined {
  return unsettledChallenges(state).find((c) => c.pointId === pointId);
}

export function lastPosition(state: DeliberationState, pointId: string): Position | undefined {
  for (let i = state.positions.length - 1; i >= 0; i -= 1) {
    const p = state.positions[i];
    if (p && p.pointId === pointId) return p;
  }
  return undefined;
}

/** Disputed list: point ids under an unsettled challenge (or contested in quick mode), sorted. */
export function disputedList(state: DeliberationState): string[] {
  const ids = new Set(unsettledChallenges(state).map((c) => c.pointId));
  for (const p of state.points) if (p.status === 'contested' && state.mode === 'quick') ids.add(p.id);
  return [...ids].sort();
}

export function pointsWithStatus(state: DeliberationState, ...statuses: Point['status'][]): Point[] {
  return state.points.filter((p) => statuses.includes(p.status));
}

const VACUOUS = new Set(['ok', 'okay', 'fine', 'agreed', 'agree', 'yes', 'no', 'none', 'n/a', 'na', 'see above', 'obvious', 'because', 'true', 'false']);

/** A reason must say something: not empty, not a stock word, at least a few words. */
export function isSubstantive(text: string | undefined): boolean {
  if (!text) return false;
  const t = text.trim().toLowerCase().replace(/[.!]+$/, '');
  if (VACUOUS.has(t)) return false;
  return t.split(/\s+/).filter(Boolean).length >= 3;
}

/** Abbreviations whose full stop ends no sentence ("e.g. Amazon MemoryDB", "vs. Redis"). */
const ABBREVIATIONS = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|resp|viz|al|fig|no|nos|ca|mr|mrs|ms|dr|prof|st|jr|sr|inc|ltd|co|corp|dept|est|min|max|sec|ns|v|ver|p|pp)\.$/i;

/** An initial or a dotted initialism at the end: "J.", "U.S.", "a.m." (a sentence may end there; a one-sentence rule errs towards one). */
const INITIALS = /(?:^|[\s(])(?:[A-Z]|(?:[A-Za-z]\.)+[A-Za-z])\.$/;

/** "..." or more with a space before it: words left out mid-sentence, not a sentence trailing off. */
const ELISION = /\s\.{3,}$/;

/** Whether a position falls inside an inline code span (an odd number of backticks before it). */
const insideCode = (before: string): boolean => (before.match(/`/g)?.length ?? 0) % 2 === 1;

/** Splits text into sentences; a full stop after an abbreviation, an initial or inside a number ends none. */
export function sentences(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  const t = text.trim();
  for (const m of t.matchAll(/[.!?]+(?=\s+\S)/g)) {
    const end = (m.index ?? 0) + m[0].length;
    const before = t.slice(start, end);
    if (m[0] === '.' && (ABBREVIATIONS.test(before) || INITIALS.test(before))) continue;
    // An elision ("SELECT ... FOR UPDATE") or a code span ends no sentence.
    if (ELISION.test(before) || insideCode(t.slice(0, end))) continue;
    // The next sentence starts with a capital, a digit or a quote; "e.g. foo" and "3. 5" do not split.
    const next = t.slice(end).trimStart();
    if (!/^["'“([A-Z0-9`*]/.test(next)) continue;
    out.push(before.trim());
    start = end;
  }
  const rest = t.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

export function isOneSentence(text: string): boolean {
  return sentences(text).length <= 1;
}

export function saysNone(text: string | undefined): boolean {
  // Only a flaw that says nothing else: "Nothing here compares the two." names a flaw.
  return !!text && /^\s*(none|no flaws?(?: found)?|n\/a|nothing(?: to (?:add|say))?)\s*[.!]*\s*$/i.test(text);
}

export function nextFactId(state: DeliberationState): string {
  return `F${state.ledger.length + 1}`;
}

export function nextChallengeId(state: DeliberationState): string {
  return `C${state.challenges.length + 1}`;
}

export function nextPointId(state: DeliberationState): string {
  const k = state.points.filter((p) => p.iter === state.n).length + 1;
  return `P${state.n}.${k}`;
}

export function nextQuestionId(state: DeliberationState): string {
  return `Q${state.surfacedQuestions.length + 1}`;
}

/** How a ledger fact looked when the consultee saw it; a change of id, tag or standing is a change. */
export function factKey(f: DeliberationState['ledger'][number]): string {
  return `${f.id}:${f.tag}${f.refuted ? ':refuted' : ''}${f.supersededBy ? ':superseded' : ''}`;
}
