import { z } from 'zod';
import { moves } from '../../protocols/argumentation/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, DeliberationId, delibResult } from './delib-shared.js';

/**
 * One tool per engine move (ledger, point, challenge, bucket, iteration, synthesis...). The engine
 * owns the rules and the input schema; the tool adds the handle, persistence and the next moves.
 */
export function moveTools(deps: ServerDeps) {
  return Object.values(moves).map((move) => {
    const shape = (move.input as z.ZodObject<z.ZodRawShape>).shape;
    return defineTool({
      name: move.name,
      description: move.summary,
      input: { deliberationId: DeliberationId, ...shape },
      output: DelibResult,
      effect: 'write',
      async handler(args) {
        const { deliberationId, ...input } = args as { deliberationId: string } & Record<string, unknown>;
        const outcome = await deps.deliberations.apply(deliberationId, move.name, input);
        // The synthesized report is what the agent presents: hand it over, not just a status.
        const report = move.name === 'delib_synthesize' ? outcome.state.report : undefined;
        return { ...delibResult(outcome), ...(report ? { report } : {}) };
      },
    });
  });
}
