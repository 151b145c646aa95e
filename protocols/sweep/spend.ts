import { Usage, zeroUsage, addUsage } from '../../schemas/common.js';
import type { BackendSpend, PriceTable } from '../../schemas/sweep.js';
import type { AuditRecord } from '../../state/audit-log.js';
import { costOf, priceFor } from './pricing.js';

/** The audit record types that log model calls, with their attempts (dialogic, debate). */
const CALL_TYPES: ReadonlySet<string> = new Set(['model_call', 'debate.call']);

export interface Spend {
  usage: Usage;
  /** Null when some backend that was used has no price. */
  costUsd: number | null;
  byBackend: Record<string, BackendSpend>;
}

/**
 * What a run spent, read from its audit log: every logged attempt of every call, over all
 * attempts of the run. A call cut off by a crash before its reply was logged is not counted.
 */
export function spendFromAudit(records: readonly AuditRecord[], prices: PriceTable): Spend {
  const usageBy = new Map<string, { calls: number; usage: Usage }>();
  for (const record of records) {
    if (!CALL_TYPES.has(record.type) || typeof record.backend !== 'string') continue;
    const entry = usageBy.get(record.backend) ?? { calls: 0, usage: zeroUsage() };
    for (const attempt of Array.isArray(record.attempts) ? record.attempts : []) {
      const usage = Usage.safeParse((attempt as { usage?: unknown }).usage);
      entry.calls += 1;
      if (usage.success) entry.usage = addUsage(entry.usage, usage.data);
    }
    usageBy.set(record.backend, entry);
  }
  return spendOf(usageBy, prices);
}

export function spendOf(usageBy: ReadonlyMap<string, { calls: number; usage: Usage }>, prices: PriceTable): Spend {
  const byBackend: Record<string, BackendSpend> = {};
  let usage = zeroUsage();
  let costUsd: number | null = 0;
  for (const [spec, entry] of [...usageBy].sort(([a], [b]) => a.localeCompare(b))) {
    const price = priceFor(spec, prices);
    const cost = price ? costOf(entry.usage, price) : null;
    byBackend[spec] = { calls: entry.calls, usage: entry.usage, costUsd: cost };
    usage = addUsage(usage, entry.usage);
    costUsd = costUsd === null || cost === null ? null : costUsd + cost;
  }
  return { usage, costUsd, byBackend };
}

/** Adds spends of several runs (per backend, then totals). */
export function addSpends(spends: readonly Pick<Spend, 'byBackend'>[], prices: PriceTable): Spend {
  const usageBy = new Map<string, { calls: number; usage: Usage }>();
  for (const spend of spends) {
    for (const [spec, entry] of Object.entries(spend.byBackend)) {
      const total = usageBy.get(spec) ?? { calls: 0, usage: zeroUsage() };
      usageBy.set(spec, { calls: total.calls + entry.calls, usage: addUsage(total.usage, entry.usage) });
    }
  }
  return spendOf(usageBy, prices);
}
