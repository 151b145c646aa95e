import type { Challenge, DeliberationState, NotEvaluatedReason, Point } from '../../../schemas/argumentation.js';
import { answerItems } from '../core/claims.js';
import { numbersNotPointsLines } from '../reading/reply-numbers.js';
import { oneLine } from './quote.js';

/**
 * How parley read the consultee's reply of one iteration, told back to it in a few lines: which ids
 * its items got, which were read as parts of an answer, what replaced what, what was not evaluated,
 * which ids it cited name nothing, and which answer could not be read for sure. The consultee then
 * uses the same ids as parley and the orchestrator.
 */

const NOT_EVALUATED: Record<NotEvaluatedReason, string> = {
  'phase-violation': 'a new argument after CONSTRUCTIVE',
  'phase-closed': 'new material in CRYSTALLIZATION, which admits only defenses and decisive evidence',
  'non-decisive-evidence': 'evidence that does not decide the claim',
  'unverified-fact': 'a claim never verified',
  'ill-formed': 'never clarified',
};

interface Numbered {
  id: string;
  iter: number;
  k: number;
  /** The consultee's own number minus k, or null when it gave none. */
  offset: number | null;
  own?: number;
}

function numbered(p: Point): Numbered | undefined {
  const m = /^P(\d+)\.(\d+)$/.exec(p.id);
  if (!m) return undefined;
  const k = Number(m[2]);
  return { id: p.id, iter: Number(m[1]), k, offset: p.number === undefined ? null : p.number - k, own: p.number };
}

/** "P3.1–P3.5, P3.7 (your 2.)": runs of consecutive ids, with the consultee's own numbers where they differ. */
export function idList(points: Point[]): string {
  const runs: Numbered[][] = [];
  for (const n of points.map(numbered).filter((x): x is Numbered => !!x)) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && last.iter === n.iter && last.k + 1 === n.k && last.offset === n.offset) run.push(n);
    else runs.push([n]);
  }
  return runs
    .map((run) => {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      const ids = run.length > 2 ? `${first.id}–${last.id}` : run.map((n) => n.id).join(', ');
      if (first.offset === 0) return ids;
      if (first.offset === null) return `${ids} (unnumbered in your reply)`;
      return `${ids} (your ${run.length > 2 ? `${first.own}.–${last.own}.` : run.map((n) => `${n.own}.`).join(', ')})`;
    })
    .join(', ');
}

function answerLine(ref: string, items: Point[]): string {
  const folded = items.filter((p) => p.status === 'part-of-answer');
  const own = items.filter((p) => p.status !== 'part-of-answer');
  const whose = /^C\d+$/.test(ref) ? `your answer to ${ref}` : `your answer on ${ref}`;
  const judged = !own.length ? ', judged with that answer' : !folded.length ? ', each judged as a point of its own' : `; ${idList(folded)} judged with that answer, ${idList(own)} as points of their own`;
  return `${idList(items)}: items of ${whose}${judged}`;
}

/** The iteration in which a challenge was answered: its defense's, or the concession's that dismissed its point. */
function answeredIn(state: DeliberationState, c: Challenge): number | undefined {
  return c.defenseIter ?? state.buckets.dismissed.find((d) => d.pointId === c.pointId && d.tag === 'CONCEDED')?.iter;
}

function unclearLine(c: Challenge): string {
  const readAs = c.status === 'conceded' ? 'a full concession' : c.partial ? 'a partial concession' : 'a defense of the whole claim';
  return `your answer to ${c.id} did not say plainly whether you give the claim up in full or keep part of it: it was read as ${readAs}. Next time write "I concede ${c.id}" or "I concede ${c.id} in part; I still claim: ..."`;
}

export function readingNotes(state: DeliberationState, iter: number): string {
  const fromReply = state.points.filter((p) => p.iter === iter);
  const lines: string[] = [];
  const points = fromReply.filter((p) => !p.partOf);
  if (points.length) lines.push(`points: ${idList(points)}`);
  const reading = state.readings?.find((r) => r.iter === iter);
  const taken = (id: string) => state.points.some((p) => p.id === id);
  for (const line of numbersNotPointsLines(reading?.numbersNotPoints ?? [], iter, taken)) lines.push(`your ${line}`);
  for (const ref of new Set(fromReply.flatMap((p) => (p.partOf ? [p.partOf] : [])))) {
    lines.push(answerLine(ref, answerItems(state, ref).filter((p) => p.iter === iter)));
  }
  for (const p of fromReply.filter((x) => x.supersedes)) {
    lines.push(`${p.id} replaces ${p.supersedes}${p.supersededOn === 'orchestrator' ? ' (so the orchestrator read it)' : ''}; ${p.supersedes} is history now`);
  }
  for (const ne of state.notEvaluated.filter((i) => i.iter === iter && i.ref.startsWith('P'))) {
    lines.push(`${ne.ref}: not evaluated (${ne.reason}: ${ne.note ? oneLine(ne.note) : NOT_EVALUATED[ne.reason]})`);
  }
  const unknown = (reading?.pending ?? []).filter((p) => p.kind === 'reference');
  if (unknown.length) {
    const cited = unknown.map((p) => `"${oneLine(p.target ?? p.text).slice(0, 40)}"`);
    lines.push(`you cited ${[...new Set(cited)].join(', ')}: no item has ${unknown.length > 1 ? 'these ids' : 'this id'}; cite the ids given here`);
  }
  for (const c of state.challenges.filter((x) => x.unclear && answeredIn(state, x) === iter)) lines.push(unclearLine(c));
  return lines.length ? `How your last reply was read (these ids are the ones used from now on):\n${lines.map((l) => `- ${l}`).join('\n')}` : '';
}
