import type { DeliberationState, Point } from '../../../schemas/argumentation.js';
import { advance, judged, reply, start } from './helpers.js';

/**
 * A synthesized deliberation whose claims have versions, as the moves that record them leave the
 * state (schemas/argumentation.ts: supersedes/supersededBy/was, partOf, part-of-answer). Built by the
 * engine's moves up to synthesis (the reader records that P2.1 replaces P1.3), then the answer's items
 * are written in by hand:
 * - P2.1, a corrected index (its code block intact), replaces the agreed P1.3 (the consultee said so);
 * - the answer to C1 holds items: P2.2 folded into it (part of the answer), P2.3 a claim of its own,
 *   agreed, then refined by P3.1 (the orchestrator recorded it), which is the claim now.
 */

export const OLD_INDEX = 'INFERENCE: A partial index keeps dequeue fast:\n   ```sql\n   CREATE INDEX jobs_queued ON jobs (created_at);\n   ```';
export const NEW_INDEX = 'INFERENCE: Corrected index, this replaces the snippet in P1.3:\n   ```sql\n   CREATE INDEX jobs_queued ON jobs (run_at)\n     WHERE status = \'queued\';\n   ```\n   It stays small as done jobs pile up.';
export const FOLDED = 'Jobs created by cron need no business transaction.';
export const ITEM = 'Retry a failed enqueue once, inside the same transaction.';
export const REFINED = 'Retry a failed enqueue once, inside the same transaction, and alert on the second failure.';

const value = (reason: string) => ({ verdict: 'AGREE', claimType: 'value', reason });

export function versionedState(): DeliberationState {
  let s = start({ question: 'Postgres SKIP LOCKED or Redis Streams for the job queue of a five-person team?', mode: 'minimal', constraints: ['Postgres 15 already runs in production'] });
  s = reply(s, ['1. INFERENCE: Use Postgres with SKIP LOCKED: no new system to run.', '2. INFERENCE: Enqueue every job in the business transaction.', `3. ${OLD_INDEX}`].join('\n'));
  s = judged(s, {
    points: [
      { id: 'P1.1', ...value('one system fewer matters most for five people') },
      { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'Not every job comes from a business write.' },
      { id: 'P1.3', ...value('an index on the queue is the standard fix') },
    ],
    ...advance,
  });
  s = reply(s, `Re C1: I concede C1 in part: enqueue in the business transaction where there is one.\n\n1. ${NEW_INDEX}`);
  s = judged(s, {
    challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'the narrowed rule covers the jobs that need it', claim: 'Enqueue in the business transaction where there is one.' }],
    points: [{ id: 'P2.1', ...value('the partial index matches the dequeue query') }],
    ...advance,
  });
  s = judged(reply(s, 'No further points.'), { ...advance, synthesis: { recommendation: 'Postgres with SKIP LOCKED, enqueued in the business transaction where there is one.', confidence: 'high', caveats: ['Revisit at 1k jobs/s'] } });
  return withVersions(s);
}

function withVersions(synthesized: DeliberationState): DeliberationState {
  const s = structuredClone(synthesized);
  const find = (id: string) => s.points.find((p) => p.id === id)!;
  const agreed = (pointId: string, iter: number, reason: string) => ({ pointId, claimType: 'value' as const, evidenceType: 'n/a' as const, reason, iter });
  // P2.1 replaces P1.3 (the reader records it from "this replaces the snippet in P1.3"; written in when it did not).
  const old = find('P1.3');
  if (old.status !== 'superseded') {
    const oldItem = s.buckets.agreed.find((i) => i.pointId === 'P1.3')!;
    s.buckets.agreed = s.buckets.agreed.filter((i) => i !== oldItem);
    Object.assign(old, { status: 'superseded', supersededBy: 'P2.1', was: { status: 'agreed', iter: oldItem.iter, agreed: oldItem } });
    Object.assign(find('P2.1'), { supersedes: 'P1.3', supersededOn: 'consultee' });
  }
  // The items of C1's answer: one folded into it, one a claim that a later point refined.
  const item = (id: string, number: number, text: string, fields: Partial<Point>): Point => ({ id, iter: 2, number, text, label: 'INFERENCE', source: 'consultee', status: 'agreed', partOf: 'C1', ...fields });
  const itemAgreed = agreed('P2.3', 2, 'one retry bounds the duplicate risk');
  s.points.push(
    item('P2.2', 2, FOLDED, { status: 'part-of-answer' }),
    item('P2.3', 3, ITEM, { status: 'superseded', supersededBy: 'P3.1', was: { status: 'agreed', iter: 2, agreed: itemAgreed } }),
    { id: 'P3.1', iter: 3, number: 1, text: REFINED, label: 'INFERENCE', source: 'consultee', status: 'agreed', supersedes: 'P2.3', supersededOn: 'orchestrator' },
  );
  s.buckets.agreed.push(agreed('P3.1', 3, 'the alert makes the second failure visible'));
  s.challenges.find((c) => c.id === 'C1')!.items = ['P2.2', 'P2.3'];
  return s;
}
