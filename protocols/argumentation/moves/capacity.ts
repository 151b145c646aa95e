import type { DeliberationState } from '../../../schemas/argumentation.js';
import { refuse, type MoveResult } from './result.js';

/**
 * The most one deliberation holds, in characters of its JSON, its report aside (the report restates
 * the rest, and leaving it out means a full deliberation can still be synthesized). The state is
 * rewritten whole on every move, so its size is the cost of every later write: ~10 ms at 100 KB,
 * ~500 ms at 10 MB. Real deliberations hold 75-100 KB besides their report (the five real-minds runs:
 * at most 19 ledger facts and 34 points); even one that used every input limit on each of its 8
 * iterations (100,000-character replies, a 100,000-character material) stays under 2,000,000.
 */
export const STATE_LIMIT_CHARS = 4_000_000;

const size = (state: DeliberationState): number => JSON.stringify({ ...state, report: undefined }).length;
const figure = (n: number): string => n.toLocaleString('en-US');

/** A refusal when `next` is over the limit and larger than `current` (a move that shrinks a full one stays legal). */
export function overCapacity(current: DeliberationState, next: DeliberationState): MoveResult | undefined {
  const after = size(next);
  if (after <= STATE_LIMIT_CHARS || after <= size(current)) return undefined;
  const parts = Object.entries(next)
    .filter(([key]) => key !== 'report')
    .map(([key, value]) => ({ key, chars: JSON.stringify(value ?? null).length, count: Array.isArray(value) ? value.length : undefined }))
    .sort((a, b) => b.chars - a.chars);
  const largest = parts[0];
  const where = largest ? `; the largest part is ${largest.key} (${figure(largest.chars)}${largest.count === undefined ? '' : ` in ${largest.count} items`})` : '';
  return refuse(
    current,
    'deliberation-full',
    `This move would make the deliberation ${figure(after)} characters of JSON, over its limit of ${figure(STATE_LIMIT_CHARS)}${where}. ` +
      'Nothing was changed: cite long material as path:lines with a short excerpt instead of copying it in, or start a new deliberation.',
  );
}
