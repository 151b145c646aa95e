import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseJsonText } from '../../state/json-text.js';
import { fileErrorText } from '../../state/read-file.js';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { confinedPath, readRoots } from '../read-roots.js';
import { RunId, RunView, runView } from './run-shared.js';

export const runResultTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_result',
    description:
      "A finished run's output (the seed's JSON) with its measures; or, with path (in the state folder or PARLEY_READ_DIRS), only the measures of a saved dialogic or debate output file (ours or a compatible foreign one).",
    input: { runId: RunId.optional(), path: z.string().max(4096).optional(), protocol: z.enum(['dialogic', 'debate']).optional().describe('with path') },
    output: { run: RunView.optional(), output: z.unknown().optional().describe('with runId only'), measures: z.record(z.string(), z.unknown()), table: z.string() },
    effect: 'read',
    async handler({ runId, path, protocol }) {
      if (runId) {
        const { meta, output } = await deps.runs.output(runId);
        const analysis = await deps.runs.analyze(meta.protocol, output, meta.runId);
        return { run: runView(meta), output, measures: analysis.measures, table: analysis.table };
      }
      if (!path || !protocol) throw new ToolRefusal('give runId, or path with protocol (dialogic or debate)');
      const file = await confinedPath(path, readRoots(deps.home, deps.env));
      const text = await readFile(file, 'utf8').catch((error: unknown) => {
        throw new ToolRefusal(fileErrorText(error, file));
      });
      const output = parseJsonText(text, path, path);
      try {
        const analysis = await deps.runs.analyze(protocol, output);
        return { measures: analysis.measures, table: analysis.table };
      } catch (error) {
        if (error instanceof ToolRefusal) throw error;
        throw new ToolRefusal(`${path} is not a ${protocol} run: ${reasonOf(error)}`);
      }
    },
  });

/** The first problem, by path and rule: never the values themselves. */
function reasonOf(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    return issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'it does not match the format';
  }
  return error instanceof Error ? error.message : String(error);
}
