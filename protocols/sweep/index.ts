export { loadSweepMatrix, parseSweepMatrix, expandSweep, parseShard, selectShard, sweepHashOf, canonicalJson, type Shard } from './matrix.js';
export { runSweep, readManifest, writeTotals, MANIFEST_FILE, TOTALS_FILE, type SweepOptions, type SweepReport, type SweepEvent } from './sweep.js';
export { runOne, runFiles, readRunResult, type RunOneOptions } from './run-one.js';
export { SweepBackends, seedForRun, DEFAULT_CALLS_PER_BACKEND, type SweepBackendOptions } from './backends.js';
export { DEFAULT_PRICES, mergePrices, priceFor, costOf, modelOfSpec } from './pricing.js';
export { spendFromAudit, addSpends, type Spend } from './spend.js';
export { mergeSweeps, type MergeReport } from './merge.js';
export { summarizeSweep, writeSummaryFiles, DIALOGIC_MEASURES, DEBATE_MEASURES, type SweepSummary, type SummaryRow, type RunRow } from './summarize.js';
export { createSweepProgress, type SweepProgress, type ProgressSink } from './progress.js';
