import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunView, runView } from './run-shared.js';

export const runResultTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_result',
    description:
      "A finished run's output (the seed's JSON) with its measures; or, with path, the measures recomputed from any saved dialogic or debate output file (ours or a compatible foreign one).",
    input: { runId: z.string().optional(), path: z.string().optional(), protocol: z.enum(['dialogic', 'debate']).optional().describe('with path') },
    output: { run: RunView.optional(), output: z.unknown(), measures: z.record(z.string(), z.unknown()), table: z.string() },
    effect: 'read',
    async handler({ runId, path, protocol }) {
      if (runId) {
        const { meta, output } = await deps.runs.output(runId);
        const analysis = await deps.runs.analyze(meta.protocol, output, meta.runId);
        return { run: runView(meta), output, measures: analysis.measures, table: analysis.table };
      }
      if (!path || !protocol) throw new ToolRefusal('give runId, or path with protocol (dialogic or debate)');
      const output = await readJson(path);
      const analysis = await deps.runs.analyze(protocol, output);
      return { output: undefined, measures: analysis.measures, table: analysis.table };
    },
  });

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ToolRefusal(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolRefusal(`${path} is not JSON: ${(error as Error).message}`);
  }
}
