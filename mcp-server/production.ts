import type { DepsOptions } from './deps.js';

/** The real protocols and backends, loaded lazily so a bare `serve` starts fast. */
export async function productionDepsOptions(): Promise<DepsOptions> {
  return {};
}
