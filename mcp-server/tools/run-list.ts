import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunView, runView } from './run-shared.js';

export const runListTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_list',
    description: 'Every dialogic and debate run in the state folder, newest first.',
    input: { protocol: z.enum(['dialogic', 'debate']).optional() },
    output: { runs: z.array(RunView) },
    effect: 'read',
    async handler({ protocol }) {
      const runs = await deps.runs.list();
      return { runs: runs.filter((run) => !protocol || run.protocol === protocol).map(runView) };
    },
  });
