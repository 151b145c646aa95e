import { z } from 'zod';
import { defineTool, reportProgress } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunId, RunView, runView } from './run-shared.js';

export const runStatusTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_status',
    description: 'Status and progress of a run (dialogic, debate or consult). waitSeconds > 0 waits for it to finish, sending progress notifications.',
    input: { runId: RunId, waitSeconds: z.number().min(0).max(50).optional() },
    output: { run: RunView },
    effect: 'read',
    async handler({ runId, waitSeconds }, extra) {
      const meta = waitSeconds
        ? await deps.runs.wait(runId, waitSeconds * 1000, (p) => void reportProgress(extra, p.done, p.total, p.message), extra.signal)
        : await deps.runs.status(runId);
      return { run: runView(meta) };
    },
  });
