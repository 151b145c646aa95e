import { SynthesizeInput } from '../../protocols/argumentation/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { closingBrief, MoveResultShape, DeliberationId, leanResult } from './delib-shared.js';

export const synthesizeTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_synthesize',
    description: "After termination: checks coverage and builds the report, led by your recommendation (the answer to the user's question). Returns the brief for your answer (what it turns on, what changed, what stays open) and where the full record is.",
    input: { deliberationId: DeliberationId, ...SynthesizeInput.shape },
    output: { ...MoveResultShape },
    effect: 'write',
    async handler({ deliberationId, ...input }) {
      const moved = await deps.deliberations.apply(deliberationId, 'synthesize', input);
      return { ...leanResult(moved.state, moved.effects), brief: await closingBrief(deps, moved) };
    },
  });
