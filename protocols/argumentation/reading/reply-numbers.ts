import type { NumberNotPoint } from '../../../schemas/argumentation.js';

/**
 * What each of a reply's own numbers that is no point became, in a few phrases: a point id is
 * P<iteration>.<the consultee's number>, so a number that went to an answer, a question or "No further
 * points" leaves a gap in the ids, and whoever reads them must see why rather than guess at a loss.
 */

const numberList = (numbers: NumberNotPoint[]) => numbers.map((n) => `${n.number}.`).join(', ');
const preposition = (ref: string) => (/^C/i.test(ref) ? 'to' : 'on');

function answered(numbers: NumberNotPoint[]): string {
  const refs = numbers.flatMap((n) => n.refs ?? []);
  const same = new Set(refs.map(preposition));
  const what = numbers.length > 1 ? 'answers' : 'an answer';
  return same.size === 1 ? `${what} ${[...same][0]} ${refs.join(', ')}` : `${what} ${refs.map((r) => `${preposition(r)} ${r}`).join(', ')}`;
}

const WHAT: Record<NumberNotPoint['as'], (numbers: NumberNotPoint[]) => string> = {
  answer: answered,
  question: (numbers) => (numbers.length > 1 ? 'questions for the user' : 'a question for the user'),
  'nothing-further': () => '"No further points"',
};

/** "1., 2., 6.: answers on P1.1, P1.2, P1.6, not points (no P2.1, P2.2, P2.6)"; ids some other item holds are not said missing. */
export function numbersNotPointsLines(numbers: NumberNotPoint[], iter: number, taken: (id: string) => boolean): string[] {
  return (['answer', 'question', 'nothing-further'] as const).flatMap((as) => {
    const group = numbers.filter((n) => n.as === as);
    if (!group.length) return [];
    const missing = [...new Set(group.map((n) => `P${iter}.${n.number}`))].filter((id) => !taken(id));
    return [`${numberList(group)}: ${WHAT[as](group)}, not ${group.length > 1 ? 'points' : 'a point'}${missing.length ? ` (no ${missing.join(', ')})` : ''}`];
  });
}
