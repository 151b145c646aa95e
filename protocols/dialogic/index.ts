import type { RunProtocol } from '../run-protocol.js';
import { DialogicConfig } from '../../schemas/dialogic.js';
import { analyzeDialogic } from './analyze.js';
import { runDialogic, type DialogicRunOutput } from './run.js';

/** The minimal-seed dialogic protocol as the run manager sees it. */
export const dialogicProtocol: RunProtocol<DialogicConfig, DialogicRunOutput> = {
  name: 'dialogic',
  configSchema: DialogicConfig,
  run: runDialogic,
  analyze: (output) => analyzeDialogic(output),
};

export { runDialogic, type DialogicRunOutput } from './run.js';
export { analyzeDialogic, measureDialogic, renderMeasures, type DialogicMeasures } from './analyze.js';
export { runDialogicToFile, type RunToFileOptions } from './run-to-file.js';
export { exportDictionaryTerms, DictionaryTerm } from './export.js';
export { DialogicCallError } from './calls.js';
