import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunView, runView } from './run-shared.js';

export const runStartTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_start',
    description:
      'Starts a server-driven run and returns its runId at once; poll run_status. dialogic config: {modelA, modelB, personas?, temperature?, seedLevel?, anonymise?, maxCycles?}. debate config: {question, agents:[{model, role?}], rounds?, crit?, rca?, pid?}. Models are specs like openai:gpt-4.1, codex:gpt-5.2, claude:sonnet, openai-compatible:<url>#<model>. Pass runId of an interrupted or failed run to resume it.',
    input: {
      protocol: z.enum(['dialogic', 'debate']),
      config: z.record(z.string(), z.unknown()).optional().describe('protocol config (omit when resuming)'),
      runId: z.string().optional().describe('resume this run'),
    },
    output: { run: RunView },
    effect: 'model-call',
    async handler({ protocol, config, runId }) {
      return { run: runView(await deps.runs.start(protocol, config ?? {}, runId)) };
    },
  });
