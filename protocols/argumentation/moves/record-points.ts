import type { DeliberationState, PendingReading, Point } from '../../../schemas/argumentation.js';
import { placeNotEvaluated } from '../core/mutations.js';
import { sentences } from '../core/queries.js';
import { keptByItemsClaim } from '../core/claims.js';
import type { Reading, ReadPoint } from '../reading/reading.js';
import { firstLabel } from '../reading/reply-labels.js';
import type { AnswerOwners } from './record-answers.js';
import { supersede, supersessionBlocker } from './supersede.js';

/**
 * Every numbered item of a reply becomes a point with one id, wherever it stands: the reply's points and
 * the items inside its answers (partOf: the challenge, or in quick mode the point, it answers). Each goes
 * through the phase rule; an item of an answer, or a point that names an earlier point, builds on existing
 * material. A point that says it replaces an earlier one makes that one history. An id that names nothing
 * is listed with its sentence for the orchestrator: it decides no phase question by itself.
 */

/** The most numbered items one reply puts on the orchestrator's desk; the rest is kept as one section. */
export const MAX_ITEMS_PER_REPLY = 60;

type Route = { status: Point['status']; reason?: 'phase-violation' | 'phase-closed'; needsDecisive?: boolean };

/** Where a new point goes in the current phase (seed: late new arguments are not evaluated; evidence on existing points is). */
function admit(state: DeliberationState, p: ReadPoint, extendsExisting: boolean): Route {
  if (state.phase === null || state.phase === 'CONSTRUCTIVE') return { status: 'pending-triage' };
  if (state.phase === 'DEVELOPMENT') return extendsExisting ? { status: 'pending-triage' } : { status: 'not-evaluated', reason: 'phase-violation' };
  return extendsExisting && p.label === 'EVIDENCE' ? { status: 'pending-triage', needsDecisive: true } : { status: 'not-evaluated', reason: 'phase-closed' };
}

/**
 * P<n>.<the consultee's own number>. A number the reply uses twice gets one above every number in
 * the reply, so no other item loses the id the consultee can match to what it wrote.
 */
function pointIds(state: DeliberationState, numbers: number[]): string[] {
  const taken = new Set(state.points.filter((p) => p.iter === state.n).map((p) => p.number ?? 0));
  let spare = Math.max(0, ...numbers, ...taken) + 1;
  return numbers.map((number) => {
    const k = number > 0 && !taken.has(number) ? number : spare++;
    taken.add(k);
    return `P${state.n}.${k}`;
  });
}

/** The sentence of `text` that names `id`, for the orchestrator to read where it stands. */
function sentenceNaming(text: string, id: string): string {
  return sentences(text.replace(/\s+/g, ' ')).find((s) => s.includes(id)) ?? text.slice(0, 300);
}

export interface RecordedPoints {
  /** Points waiting for a triage (admitted by the phase rule). */
  admitted: number;
}

export function recordPoints(next: DeliberationState, reading: Reading, owners: AnswerOwners, pending: PendingReading[], effects: string[]): RecordedPoints {
  let admitted = 0;
  const knownPoints = new Set(next.points.map((p) => p.id));
  // Challenges this reply left unanswered, a REJECT already dismissed for it included (a correction reopens it).
  const open = new Set(next.challenges.filter((c) => c.droppedIter === next.n).map((c) => c.id));
  const read = reading.points.slice(0, MAX_ITEMS_PER_REPLY);
  const ids = pointIds(next, read.map((p) => p.number));
  const references = new Set<string>();
  const replacing: [string, string][] = [];
  for (const [i, p] of read.entries()) {
    const id = ids[i]!;
    const partOf = p.partOf ? owners.get(p.partOf) : undefined;
    const known = (r: string) => knownPoints.has(r) || ids.includes(r);
    const refs = [...p.pointRefs.filter(known), ...p.challengeMentions];
    const unknown = [...p.pointRefs.filter((r) => !known(r)), ...(p.factRefs ?? []).filter((f) => !next.ledger.some((fact) => fact.id === f))];
    for (const ref of unknown.filter((r) => !references.has(r))) {
      references.add(ref);
      pending.push({ ref: `R${pending.filter((x) => x.kind === 'reference').length + 1}`, kind: 'reference', target: ref, text: `${id}: ${sentenceNaming(p.text, ref)}` });
    }
    const mentionedPoints = p.challengeMentions.some((cid) => next.challenges.some((c) => c.id === cid));
    // Seed: evidence on existing points is admitted late; a ledger fact the point cites (F7) is existing material too.
    const citesLedger = (p.factRefs ?? []).some((f) => next.ledger.some((fact) => fact.id === f));
    const extendsExisting = p.pointRefs.some((r) => knownPoints.has(r)) || mentionedPoints || citesLedger || !!partOf;
    // A point whose only link is an id that names nothing: the orchestrator triages it (in DEVELOPMENT it may be an extension).
    const route = admit(next, p, extendsExisting || (unknown.some((r) => r.startsWith('P')) && next.phase === 'DEVELOPMENT'));
    next.points.push({
      id,
      iter: next.n,
      number: p.number,
      text: p.text,
      label: p.label,
      source: 'consultee',
      status: route.status,
      needsDecisive: route.needsDecisive,
      ...(refs.length ? { refs } : {}),
      ...(partOf ? { partOf } : {}),
    });
    if (partOf) {
      const challenge = next.challenges.find((c) => c.id === partOf);
      if (challenge) challenge.items = [...(challenge.items ?? []), id];
    }
    if (route.reason) {
      const what = partOf ? `an item of the answer to ${partOf}, new content` : 'a new argument';
      placeNotEvaluated(next, { ref: id, reason: route.reason, note: `${what} in ${next.phase}`, iter: next.n });
      effects.push(`${id} -> Not Evaluated (${route.reason}: ${what} in ${next.phase})`);
    } else admitted += 1;
    const target = p.supersedes?.find((old) => knownPoints.has(old));
    if (target) replacing.push([id, target]);
    // A point naming a challenge that got no answer may be its defense: the orchestrator says which.
    for (const cid of p.challengeMentions.filter((c) => open.has(c))) pending.push({ ref: id, kind: 'mention', target: cid, text: p.text.slice(0, 300) });
  }
  for (const [id, old] of replacing) {
    const blocked = supersessionBlocker(next, id, old);
    effects.push(blocked ? `${id} says it replaces ${old}, but ${blocked}: judge ${id} on its own` : supersede(next, id, old, 'consultee'));
  }
  admitted += recordAdditions(next, reading, owners, effects);
  keptByItems(next, reading, owners);
  const items = ids.filter((id) => next.points.find((p) => p.id === id)?.partOf);
  if (items.length) effects.push(`${items.join(', ')}: item(s) of an answer, judged as points (or read one as part of its answer: as defense)`);
  overflow(reading.points.slice(MAX_ITEMS_PER_REPLY), pending);
  return { admitted };
}

/**
 * New content inside an answer that gives something up ("I still claim X, and also that Y") is a new argument:
 * a point of its own, unnumbered, which the phase rule admits like any other (it extends nothing: it is new).
 */
function recordAdditions(next: DeliberationState, reading: Reading, owners: AnswerOwners, effects: string[]): number {
  const added = reading.answers.flatMap((a) => {
    const owner = owners.get(a.ref);
    return owner ? (a.added ?? []).map((text) => ({ text, owner })) : [];
  });
  const ids = pointIds(next, added.map(() => 0));
  let admitted = 0;
  for (const [i, { text, owner }] of added.entries()) {
    const id = ids[i]!;
    const label = firstLabel(text);
    const route = admit(next, { number: 0, text, pointRefs: [], challengeMentions: [], unlabeledVerification: false, ...(label ? { label } : {}) }, false);
    next.points.push({ id, iter: next.n, text, ...(label ? { label } : {}), source: 'consultee', status: route.status, needsDecisive: route.needsDecisive });
    const what = `a new argument inside the answer ${/^C\d+$/.test(owner) ? 'to' : 'on'} ${owner}`;
    if (route.reason) {
      placeNotEvaluated(next, { ref: id, reason: route.reason, note: `${what} in ${next.phase}`, iter: next.n });
      effects.push(`${id} -> Not Evaluated (${route.reason}: ${what} in ${next.phase})`);
    } else {
      admitted += 1;
      effects.push(`${id}: ${what}, a point of its own: judge it`);
    }
  }
  return admitted;
}

/** "What I still claim:" over a list: the narrowed claim is that list, which are points of their own now. */
function keptByItems(next: DeliberationState, reading: Reading, owners: AnswerOwners): void {
  for (const a of reading.answers.filter((x) => x.keptByItems)) {
    const owner = owners.get(a.ref);
    const items = next.points.filter((p) => p.iter === next.n && p.partOf === owner).map((p) => p.id);
    if (!owner || !items.length) continue;
    const claim = keptByItemsClaim(items);
    const challenge = next.challenges.find((c) => c.id === owner);
    if (challenge?.partial && !challenge.narrowedClaim) challenge.narrowedClaim = claim;
    const point = next.mode === 'quick' ? next.points.find((p) => p.id === owner) : undefined;
    if (point?.answer === 'partial' && !point.narrowed) point.narrowed = claim;
  }
}

/** Items past the limit stay in the record (the audit log has the whole reply) as one section, not as points. */
function overflow(rest: ReadPoint[], pending: PendingReading[]): void {
  if (!rest.length) return;
  const text = rest.map((p) => `${p.number}. ${p.text}`).join('\n');
  const shown = text.length > 2000 ? `${text.slice(0, 2000)}\n[... ${text.length - 2000} more characters: the audit log has the whole reply]` : text;
  pending.push({
    ref: `S${pending.filter((x) => x.kind === 'section').length + 1}`,
    kind: 'section',
    title: `${rest.length} more numbered item(s), past the ${MAX_ITEMS_PER_REPLY} one reply can hold: not read as points`,
    text: shown,
  });
}
