import { StartInput } from '../../protocols/argumentation/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, delibResult } from './delib-shared.js';

export const delibStartTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_start',
    description:
      'Starts a deliberation. mode: standard (persisted, arbitration, stress test), minimal (no arbitration or stress test), quick (2 iterations, in memory).',
    input: StartInput.shape,
    output: DelibResult,
    effect: 'write',
    async handler(input) {
      return delibResult(await deps.deliberations.start(input));
    },
  });
