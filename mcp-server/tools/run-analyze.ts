import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';

export const runAnalyzeTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_analyze',
    description: 'Recomputes the measures of a dialogic or debate output file (ours or a compatible foreign one) or of a finished run.',
    input: {
      protocol: z.enum(['dialogic', 'debate']),
      path: z.string().optional().describe('output JSON file'),
      runId: z.string().optional(),
    },
    output: { measures: z.record(z.string(), z.unknown()), table: z.string() },
    effect: 'read',
    async handler({ protocol, path, runId }) {
      if (!path && !runId) throw new ToolRefusal('give path (an output JSON file) or runId');
      const output = runId ? (await deps.runs.output(runId)).output : await readJson(path as string);
      return deps.runs.analyze(protocol, output);
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
