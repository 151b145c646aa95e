import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, DeliberationId, delibResult } from './delib-shared.js';

export const delibStatusTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_status',
    description: 'Iteration, phase, open challenges, points awaiting evaluation, bucket counts, termination, and the legal next moves.',
    input: { deliberationId: DeliberationId },
    output: DelibResult,
    effect: 'read',
    async handler({ deliberationId }) {
      const { state, revision } = await deps.deliberations.get(deliberationId);
      return delibResult({ state, revision, effects: [] });
    },
  });
