import type { DeliberationState } from '../../../schemas/argumentation.js';
import { concededNow } from '../core/queries.js';
import { keptByItemsClaim } from '../core/claims.js';
import { numbersNotPointsLines } from '../reading/reply-numbers.js';

const HINTS: Record<string, string> = {
  section: 'not a numbered item: read it as a point (point: "P1.3" appends it to one), a question, or leave it',
  question: 'a question for the user: surface it (as question), or leave it',
  answer: 'names no challenge awaiting an answer: read it as a defense of a challenge, or as a point',
  mention: 'names an objection that got no answer: if it defends it, read it as a defense',
  reference: 'names nothing that exists: judge the point citing it on its own (triage new-argument if it builds on nothing)',
};

/**
 * What the orchestrator needs to judge the reply of iteration n, and nothing else: each numbered item in
 * full under its id (an item of an answer says which answer), each answer in its own words with its
 * items named, and every part of the reply parley did not apply with certainty. The consultee's words
 * appear once: nothing of the reply is left out without being listed here, nothing is shown twice.
 */
export function replyView(state: DeliberationState): Record<string, unknown> {
  const reading = state.readings?.find((r) => r.iter === state.n);
  const points = state.points.filter((p) => p.iter === state.n);
  // An answer whose point the same reply then replaced is shown too: the replacement cites it.
  const answered = state.challenges.filter((c) => c.defenseIter === state.n && (c.status === 'defended' || c.resolution === 'superseded'));
  const replacedBy = (c: { pointId: string; resolution?: string }) => (c.resolution === 'superseded' ? { closed: `its point was replaced by ${state.points.find((p) => p.id === c.pointId)?.supersededBy ?? 'a later point'}: judge that` } : {});
  const quickAnswers = state.mode === 'quick' ? state.points.filter((p) => p.iter < state.n && p.defense && p.status === 'contested') : [];
  const quickConceded = state.mode === 'quick' ? state.points.filter((p) => concededNow(state, p.id)) : [];
  // The words behind each concession parley applied, so that a defense misread as one can be read back.
  const conceded: { challenge?: string; point: string; text: string }[] = [
    ...state.challenges.filter((c) => c.status === 'conceded' && concededNow(state, c.pointId)).map((c) => ({ challenge: c.id, point: c.pointId, text: c.defense ?? '' })),
    ...quickConceded.map((p) => ({ point: p.id, text: p.defense ?? '' })),
  ];
  const highest = Math.max(0, ...points.map((p) => Number(p.id.split('.')[1]) || 0));
  const gaps = (reading?.numbersNotPoints ?? []).filter((n) => n.number < highest);
  const itemsOf = (ref: string) => points.filter((p) => p.partOf === ref).map((p) => p.id);
  const partial = (narrowed: string | undefined, unclear: boolean) => ({
    partialConcession: true,
    ...(unclear ? { unclear: 'all of the claim given up, or part? read it as concession, or judge it as partial' } : {}),
    ...(narrowed ? { narrowedClaim: narrowed } : { claimNeeded: 'no kept claim could be cut out: give claim when you accept it' }),
  });
  return {
    iteration: state.n,
    ...(reading?.headline ? { headline: reading.headline } : {}),
    ...(reading?.nothingFurther ? { nothingFurther: true } : {}),
    // A gap in the point ids (a number that went to an answer, a question or "No further points") is said, so it is no loss to wonder about.
    ...(gaps.length ? { numbersNotPoints: numbersNotPointsLines(gaps, state.n, (id) => state.points.some((p) => p.id === id)) } : {}),
    points: points.map((p) => ({
      // Its label is in its text (that is where the reader found it): shown once.
      id: p.id,
      ...(p.partOf ? { partOf: p.partOf } : {}),
      ...(p.supersedes ? { replaces: p.supersedes } : {}),
      ...(p.refs?.some((r) => r !== p.supersedes) ? { refs: p.refs.filter((r) => r !== p.supersedes) } : {}),
      ...(p.status === 'not-evaluated' ? { notEvaluated: state.notEvaluated.find((i) => i.ref === p.id)?.reason } : {}),
      ...(p.status === 'part-of-answer' ? { readAs: `part of the answer to ${p.partOf}` } : {}),
      ...(p.needsDecisive ? { needsDecisive: true } : {}),
      text: p.text,
    })),
    ...(answered.length || quickAnswers.length
      ? {
          answers: [
            ...answered.map((c) => ({ challenge: c.id, point: c.pointId, ...replacedBy(c), ...(c.partial && !c.resolution ? partial(c.narrowedClaim, !!c.unclear) : {}), ...withItems(itemsOf(c.id), c.narrowedClaim), text: c.answerOwnWords ?? c.defense })),
            ...quickAnswers.map((p) => ({ point: p.id, ...(p.answer === 'partial' || p.answer === 'unclear' ? partial(p.narrowed, p.answer === 'unclear') : {}), ...withItems(itemsOf(p.id), p.narrowed), text: p.answerOwnWords ?? p.defense })),
          ],
        }
      : {}),
    ...(conceded.length ? { conceded: conceded.map((c) => ({ ...c, hint: `if it kept part, re-read ${c.challenge ?? c.point} as partial` })) } : {}),
    ...(reading?.pending.some((p) => !p.resolved)
      ? { reading: reading.pending.filter((p) => !p.resolved).map((p) => ({ ref: p.ref, kind: p.kind, ...(p.target ? { target: p.target } : {}), ...(p.title ? { title: p.title } : {}), text: p.text, hint: HINTS[p.kind] })) }
      : {}),
  };
}

// A narrowed claim that is the list of items names them already.
const withItems = (ids: string[], narrowed?: string) => (ids.length && narrowed !== keptByItemsClaim(ids) ? { items: ids } : {});
