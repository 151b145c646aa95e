import { zeroUsage, addUsage, type Usage } from '../../schemas/common.js';
import { readModelCall } from '../../schemas/model-call.js';
import type { BackendSpend, PriceTable } from '../../schemas/sweep.js';
import type { AuditRecord } from '../../state/audit-log.js';
import { costOf, priceFor } from './pricing.js';

export interface Spend {
  usage: Usage;
  /** Null when some backend that was used has no price. */
  costUsd: number | null;
  byBackend: Record<string, BackendSpend>;
}

/**
 * What a run spent, read from its audit log: every logged attempt of every model-call record (the
 * current shape or a legacy one, schemas/model-call.ts), over all attempts of the run. A call cut
 * off by a crash before its reply was logged is not counted.
 */
export function spendFromAudit(records: readonly AuditRecord[], prices: PriceTable): Spend {
  const usageBy = new Map<string, { calls: number; usage: Usage }>();
  for (const record of records) {
    const call = readModelCall(record);
    if (!call) continue;
    const entry = usageBy.get(call.backend) ?? { calls: 0, usage: zeroUsage() };
    for (const attempt of call.attempts) {
      entry.calls += 1;
      entry.usage = addUsage(entry.usage, attempt.usage);
    }
    usageBy.set(call.backend, entry);
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
