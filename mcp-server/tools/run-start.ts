import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { RunId, RunView, runView } from './run-shared.js';

export const runStartTool = (deps: ServerDeps) =>
  defineTool({
    name: 'run_start',
    description:
      'Starts a run, returns its runId at once (poll run_status). dialogic: {modelA, modelB, personas?, temperature?, seedLevel?, anonymise?}; debate: {question, agents:[{model, role?}], rounds?, crit?, rca?, pid?}. Models: openai:gpt-4.1, codex:gpt-5.2, claude:sonnet, openai-compatible:<url>#<model>. runId resumes a stopped run.',
    input: {
      protocol: z.enum(['dialogic', 'debate']),
      config: z.record(z.string(), z.unknown()).optional(),
      runId: RunId.optional(),
    },
    output: { run: RunView },
    effect: 'model-call',
    async handler({ protocol, config, runId }) {
      return { run: runView(await deps.runs.start(protocol, config ?? {}, runId)) };
    },
  });
