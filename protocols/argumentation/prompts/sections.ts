import type { Challenge, DeliberationState, Fact, Point } from '../../../schemas/argumentation.js';
import { claimText } from '../core/claims.js';
import { FRAMINGS } from '../core/framings.js';
import { findPoint, iterationCap, lastPosition, unsettledChallenges } from '../core/queries.js';
import { oneLine, quote, wholeSentences } from './quote.js';

/** A restated point is quoted whole up to this many characters (whole sentences beyond). */
export const RESTATED_POINT_MAX = 2000;

/** Data inside markers; a marker inside the data is defused so the data cannot close its own block. */
export function block(title: string, body: string): string {
  return `=== ${title} ===\n${body.replace(/===/g, '= = =')}\n=== END ${title} ===`;
}

/** The user's question, verbatim, on every call. */
export function anchor(state: DeliberationState): string {
  return block('USER QUESTION', state.question);
}

export function phaseLine(state: DeliberationState): string {
  const cap = iterationCap(state);
  if (state.phase === null) return `Iteration ${state.n}/${cap} (quick: at most two rounds).`;
  const rule = {
    CONSTRUCTIVE: 'new arguments are welcome',
    DEVELOPMENT: 'extend, defend or rebut existing points (say which one); new evidence on an existing point is evaluated, a new independent argument is recorded as not evaluated, however it is introduced',
    CRYSTALLIZATION: 'only defenses to open challenges; only decisive evidence (it directly confirms or contradicts a claim) can still change an outcome',
  }[state.phase];
  return `Iteration ${state.n}/${cap} · phase ${state.phase}${state.extendedConstructive && state.n === 3 ? ' (extended)' : ''}: ${rule}.`;
}

export function factLine(f: Fact): string {
  const tag = f.tag === 'verified' ? `verified: ${oneLine(f.reference ?? '')}` : f.tag;
  const extra = f.supersedes ? ` (supersedes ${f.supersedes})` : '';
  return `${f.id}${extra} [${tag}] ${oneLine(f.text)}${f.refuted ? ' — REFUTED' : ''}${f.supersededBy ? ` — superseded by ${f.supersededBy}` : ''}`;
}

export function ledgerSection(title: string, facts: Fact[]): string {
  return facts.length ? `${title}:\n${facts.map(factLine).join('\n')}` : '';
}

export function ask(state: DeliberationState): string {
  const framing = FRAMINGS[state.framing];
  const request = state.mode === 'quick' ? framing.quick : framing.ask;
  return [`Request: ${request}`, state.material ? block('MATERIAL', state.material) : ''].filter(Boolean).join('\n\n');
}

/** A point restated to the consultee: the claim as it now stands, quoted whole. */
export function restated(point: Point, indent = '   '): string {
  return `${indent}${point.id} as it stands${point.narrowed ? ' (narrowed)' : ''}:\n${quote(claimText(point), { indent, max: RESTATED_POINT_MAX })}`;
}

/** A verdict's evidence can be a command and its output: kept whole up to this many characters. */
const GROUNDS_MAX = 1500;

/** What an objection rests on, as the orchestrator recorded it: its evidence and, for a REJECT, why it is terminal. */
export function objectionGrounds(grounds: { evidence?: string; terminalWhy?: string }, indent = '   '): string[] {
  return [
    ...(grounds.evidence ? [`${indent}the orchestrator's evidence: ${oneLine(wholeSentences(grounds.evidence, GROUNDS_MAX))}`] : []),
    ...(grounds.terminalWhy ? [`${indent}why it is terminal: ${oneLine(grounds.terminalWhy)}`] : []),
  ];
}

function challengeLine(state: DeliberationState, c: Challenge, restate: boolean): string {
  const point = findPoint(state, c.pointId);
  const lines = [`${c.id} (${c.type}) on ${c.pointId}: ${oneLine(c.objection)}`, ...objectionGrounds(c)];
  if (point && restate) lines.push(restated(point));
  if (c.rebuttal) lines.push(`   orchestrator: ${oneLine(c.rebuttal)}`);
  if (c.status === 'dropped') lines.push(`   REMINDER: you did not answer ${c.id}. Answer "Re ${c.id}: ..." or concede it; unanswered again, ${c.pointId} is dismissed as undefended.`);
  if (c.type === 'REJECT') lines.push('   single defense round: this is your one chance.');
  return lines.join('\n');
}

/** The challenges to answer; `restate` quotes each challenged point (a recovery lists them all already). */
export function openChallenges(state: DeliberationState, restate = true): string {
  const open = unsettledChallenges(state).filter((c) => c.status !== 'defended');
  return open.length ? `Open challenges (answer each by id):\n${open.map((c) => challengeLine(state, c, restate)).join('\n')}` : 'Open challenges: none.';
}

/** Quick mode: the objections to answer, by point id, each with the point it objects to. */
export function objections(state: DeliberationState, restate = true): string {
  const contested = state.points.filter((p) => p.status === 'contested');
  if (!contested.length) return '';
  const lines = contested.map((p) => {
    const pos = lastPosition(state, p.id);
    const grounds = pos ? objectionGrounds(pos) : [];
    return [`${p.id} (${pos?.classification ?? 'SKEPTICAL'}): ${oneLine(pos?.flaw ?? '')}`, ...grounds, ...(restate ? [restated(p)] : [])].join('\n');
  });
  return `Objections (answer each by point id: "Re ${contested[0]!.id}: ..." or concede it):\n${lines.join('\n')}`;
}

/** An agreement with less than the point said names what was agreed, so the consultee can object to the narrowing. */
function agreedAs(state: DeliberationState, pos: { pointId: string; classification: string }): string {
  const point = findPoint(state, pos.pointId);
  return pos.classification === 'AGREE' && point?.narrowedBy === 'orchestrator' && point.narrowed ? `, narrower than written: "${oneLine(point.narrowed)}"` : '';
}

/** Point ids in the consultee's order: P1.9 before P1.10, P1.11 before P2.1. */
const byPointId = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** What the orchestrator decided about the consultee's reply of iteration `iter`: one line per decision, in point order. */
export function evaluation(state: DeliberationState, iter: number): string {
  const lines: [string, string][] = [];
  const objected = (id: string) => state.mode === 'quick' && state.points.some((p) => p.id === id && p.status === 'contested');
  for (const pos of state.positions.filter((p) => p.iter === iter && !objected(p.pointId))) {
    const rev = pos.revision ? ` (revised from ${pos.revision.from}: ${oneLine(pos.revision.because)})` : '';
    lines.push([pos.pointId, `${pos.pointId}: ${pos.classification}${agreedAs(state, pos)}${pos.flaw ? ` — ${oneLine(pos.flaw)}` : ''}${rev}`]);
  }
  for (const d of state.buckets.dismissed.filter((i) => i.iter === iter)) lines.push([d.pointId, `${d.pointId}: dismissed ${d.tag} — ${oneLine(d.reason)}`]);
  for (const u of state.buckets.unresolved.filter((i) => i.iter === iter)) lines.push([u.pointId, `${u.pointId}: unresolved (${u.status}) — ${oneLine(u.crux)}`]);
  for (const p of state.points.filter((x) => x.status === 'clarification-requested')) lines.push([p.id, `${p.id}: ILL-FORMED, please clarify: ${oneLine(p.clarification ?? '')}`]);
  // Stable: a point's own lines (its verdict, then where it went) keep their order.
  const sorted = lines.sort(([a], [b]) => byPointId(a, b)).map(([, line]) => line);
  return sorted.length ? `Orchestrator's evaluation of your last reply:\n${sorted.join('\n')}` : '';
}
