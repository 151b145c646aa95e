import type { DeliberationState, Phase } from '../../schemas/argumentation.js';
import type { AuditRecord } from '../../state/audit-log.js';
import { phaseFor } from '../argumentation/queries.js';

/** What the argumentation report derives from a state file and its audit log. */

export function phaseOf(state: DeliberationState, iter: number): Phase | null {
  if (state.mode === 'quick') return null;
  if (state.extendedConstructive && iter === 3) return 'CONSTRUCTIVE';
  return phaseFor(iter);
}

/** The text behind a reference: a point (P..) or a ledger fact (F..). */
export function refText(state: DeliberationState, ref: string): string {
  return state.points.find((p) => p.id === ref)?.text ?? state.ledger.find((f) => f.id === ref)?.text ?? '';
}

export interface ChallengeEvent {
  challenge: string;
  label: string;
  iter: number;
  event: 'opened' | 'raised again' | 'defended' | 'ended';
  detail: string;
}

export interface ChallengeSpan {
  challenge: string;
  label: string;
  from: number;
  to: number;
  outcome: string;
}

/** The iteration each challenge_resolve happened in, replayed from the audit log's accepted moves. */
export function resolutionIterations(audit: readonly AuditRecord[]): Map<string, number> {
  const resolved = new Map<string, number>();
  let n = 1;
  for (const record of audit) {
    if (record.type !== 'move' || record.changed !== true) continue;
    if (record.move === 'iteration_advance') {
      const effects = ((record.result as { effects?: unknown } | undefined)?.effects ?? []) as unknown[];
      for (const effect of effects) {
        const match = /^iteration (\d+)\b|\bat n=(\d+)/.exec(String(effect));
        if (match) n = Number(match[1] ?? match[2]);
      }
    }
    const input = record.input as { challengeId?: unknown } | undefined;
    if (record.move === 'challenge_resolve' && typeof input?.challengeId === 'string') resolved.set(input.challengeId, n);
  }
  return resolved;
}

/** Every challenge as a span over iterations plus its events, for the timeline chart and table. */
export function challengeTimeline(state: DeliberationState, audit: readonly AuditRecord[] = []): { spans: ChallengeSpan[]; events: ChallengeEvent[] } {
  const resolvedAt = resolutionIterations(audit);
  const spans: ChallengeSpan[] = [];
  const events: ChallengeEvent[] = [];
  for (const c of state.challenges) {
    const label = `${c.id} on ${c.pointId}`;
    const settled = c.status !== 'open' && c.status !== 'defended';
    const placed = [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].find((item) => item.pointId === c.pointId)?.iter;
    const end = resolvedAt.get(c.id) ?? placed ?? (settled ? Math.max(c.defenseIter ?? c.raisedIter, c.raisedIter) : state.n);
    const outcome = c.resolution ?? c.status;
    spans.push({ challenge: c.id, label, from: c.openedIter, to: Math.max(end, c.openedIter), outcome });
    events.push({ challenge: c.id, label, iter: c.openedIter, event: 'opened', detail: `${c.type}: ${c.objection}` });
    if (c.raisedIter > c.openedIter) events.push({ challenge: c.id, label, iter: c.raisedIter, event: 'raised again', detail: c.rebuttal ?? '' });
    if (c.defenseIter !== undefined) events.push({ challenge: c.id, label, iter: c.defenseIter, event: 'defended', detail: c.defense ?? '' });
    if (settled) events.push({ challenge: c.id, label, iter: Math.max(end, c.openedIter), event: 'ended', detail: outcome });
  }
  return { spans, events };
}

export function bucketOf(state: DeliberationState, pointId: string): string {
  if (state.buckets.agreed.some((i) => i.pointId === pointId)) return 'agreed';
  if (state.buckets.dismissed.some((i) => i.pointId === pointId)) return 'dismissed';
  if (state.buckets.unresolved.some((i) => i.pointId === pointId)) return 'unresolved';
  if (state.notEvaluated.some((i) => i.ref === pointId)) return 'not evaluated';
  return 'unplaced';
}
