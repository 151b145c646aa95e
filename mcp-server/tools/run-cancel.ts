import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunId, RunView, runView } from './run-shared.js';

export const runCancelTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_cancel',
    description: 'Stops a running run; completed model calls stay in its audit log, so run_start {runId} resumes it.',
    input: { runId: RunId },
    output: { run: RunView },
    effect: 'write-idempotent',
    async handler({ runId }) {
      return { run: runView(await deps.runs.cancel(runId)) };
    },
  });
