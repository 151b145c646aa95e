import type { Challenge, DeliberationState, Phase } from '../../../schemas/argumentation.js';
import type { AuditRecord } from '../../../state/audit-log.js';
import { findPoint, phaseFor } from '../core/queries.js';

/** Each challenge over the iterations, from the state and, where kept, the audit log of its moves. */

export function phaseOf(state: DeliberationState, iter: number): Phase | null {
  if (state.mode === 'quick') return null;
  if (state.extendedConstructive && iter === 3) return 'CONSTRUCTIVE';
  return phaseFor(iter);
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

interface MoveRecord {
  input?: { challengeId?: unknown; challenges?: { id?: unknown }[] };
  result?: { effects?: unknown[]; refused?: { item?: unknown }[] };
}

/** The challenges a judgment (or a retired challenge_resolve) applied, and the iteration its advance moved to. */
function readMove(record: AuditRecord): { resolved: string[]; advancedTo?: number } {
  const { input, result } = record as MoveRecord;
  const refused = new Set((result?.refused ?? []).map((r) => r.item));
  const resolved =
    record.move === 'judge'
      ? (input?.challenges ?? []).filter((c, i) => typeof c.id === 'string' && !refused.has(`challenges[${i}]`)).map((c) => c.id as string)
      : record.move === 'challenge_resolve' && typeof input?.challengeId === 'string'
        ? [input.challengeId]
        : [];
  let advancedTo: number | undefined;
  if (record.move === 'judge' || record.move === 'iteration_advance') {
    for (const effect of result?.effects ?? []) {
      const match = /^iteration (\d+)\b|\bat n=(\d+)/.exec(String(effect));
      if (match) advancedTo = Number(match[1] ?? match[2]);
    }
  }
  return { resolved, advancedTo };
}

/** The iteration each challenge was judged in, replayed from the audit log's accepted moves. */
export function resolutionIterations(audit: readonly AuditRecord[]): Map<string, number> {
  const resolvedAt = new Map<string, number>();
  let n = 1;
  for (const record of audit) {
    if (record.type !== 'move' || record.changed !== true) continue;
    const { resolved, advancedTo } = readMove(record);
    // A judgment resolves its challenges before it advances.
    for (const id of resolved) resolvedAt.set(id, n);
    if (advancedTo !== undefined) n = advancedTo;
  }
  return resolvedAt;
}

/** How a challenge ended, in words: a point replaced by a conceding version names that version. */
export function challengeOutcome(state: DeliberationState, c: Challenge): string {
  if (c.resolution === 'conceded-by-replacement') return `conceded by replacement (${findPoint(state, c.pointId)?.supersededBy ?? 'a later version'})`;
  return c.resolution ?? c.status;
}

/** Every challenge as a span over iterations plus its events; without an audit log, the bucket placement ends a span. */
export function challengeTimeline(state: DeliberationState, audit: readonly AuditRecord[] = []): { spans: ChallengeSpan[]; events: ChallengeEvent[] } {
  const resolvedAt = resolutionIterations(audit);
  const spans: ChallengeSpan[] = [];
  const events: ChallengeEvent[] = [];
  for (const c of state.challenges) {
    const label = `${c.id} on ${c.pointId}`;
    const settled = c.status !== 'open' && c.status !== 'defended';
    const placed = [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].find((item) => item.pointId === c.pointId)?.iter;
    const end = resolvedAt.get(c.id) ?? placed ?? (settled ? Math.max(c.defenseIter ?? c.raisedIter, c.raisedIter) : state.n);
    const outcome = challengeOutcome(state, c);
    spans.push({ challenge: c.id, label, from: c.openedIter, to: Math.max(end, c.openedIter), outcome });
    events.push({ challenge: c.id, label, iter: c.openedIter, event: 'opened', detail: `${c.type}: ${c.objection}` });
    if (c.raisedIter > c.openedIter) events.push({ challenge: c.id, label, iter: c.raisedIter, event: 'raised again', detail: c.rebuttal ?? '' });
    if (c.defenseIter !== undefined) events.push({ challenge: c.id, label, iter: c.defenseIter, event: 'defended', detail: c.defense ?? '' });
    if (settled) events.push({ challenge: c.id, label, iter: Math.max(end, c.openedIter), event: 'ended', detail: outcome });
  }
  return { spans, events };
}
