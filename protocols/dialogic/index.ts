import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunProtocol } from '../run-protocol.js';
import type { DialogicConfig, DialogicRun } from '../../schemas/dialogic.js';
import { analyzeDialogic } from './analyze.js';
import { CHECKED_DIALOGIC_CONFIG, dialogicModelSpecs, runDialogic } from './run.js';

/**
 * The minimal-seed dialogic protocol as the run manager sees it: a run's output is exactly the
 * seed's full-run JSON; the baseline stays beside it (baseline.json) and the measures read it.
 */
export const dialogicProtocol: RunProtocol<DialogicConfig, DialogicRun> = {
  name: 'dialogic',
  configSchema: CHECKED_DIALOGIC_CONFIG,
  modelSpecs: dialogicModelSpecs,
  run: async (config, ctx) => (await runDialogic(config, ctx)).run,
  analyze: async (output, context) => {
    const baseline = context?.dir ? await readFile(join(context.dir, 'baseline.json'), 'utf8').then(JSON.parse, () => undefined) : undefined;
    return analyzeDialogic(output, baseline === undefined ? {} : { baseline });
  },
};

export { runDialogic, parseDialogicConfig, type DialogicRunOutput } from './run.js';
export { analyzeDialogic, measureDialogic, renderMeasures, type DialogicMeasures } from './analyze.js';
export { runDialogicToFile, type RunToFileOptions } from './run-to-file.js';
export { exportDictionaryTerms, DictionaryTerm } from './export.js';
export { DialogicCallError } from './calls.js';
