import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunId, RunView, runView } from './run-shared.js';

export const runResultTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_result',
    description: "The output JSON of a succeeded run (the seed's schema) and its measures.",
    input: { runId: RunId },
    output: { run: RunView, output: z.unknown(), measures: z.record(z.string(), z.unknown()) },
    effect: 'read',
    async handler({ runId }) {
      const { meta, output } = await deps.runs.output(runId);
      return { run: runView(meta), output, measures: deps.runs.analyze(meta.protocol, output).measures };
    },
  });
