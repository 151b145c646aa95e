import { z } from 'zod';
import { StartInput } from '../../protocols/argumentation/index.js';
import { CONSULTEE, refuseUnreadyModels } from '../model-checks.js';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { ConsultOptions, consultAndWait, DelibResult, leanResult } from './delib-shared.js';
import { relatedDecisions } from '../decisions.js';

export const delibStartTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_start',
    description:
      'Starts a deliberation and asks Codex at once (consult: false to add ledger facts first). mode: quick (2 rounds, in memory), minimal (default: phases, ledger, challenges), standard (adds stress test and arbitration).',
    input: { ...StartInput.shape, consult: z.union([z.literal(false), z.object(ConsultOptions)]).optional() },
    output: DelibResult,
    effect: 'model-call',
    async handler({ consult, ...input }, extra) {
      // A Codex that can only fail is named before anything exists: a refused delib_start leaves no deliberation behind.
      if (consult !== false) await refuseUnreadyModels(deps.checkModels, [CONSULTEE], 'the deliberation');
      // Found, never given to Codex: the orchestrator decides whether one is material.
      const related = await relatedDecisions(deps, input.question);
      const started = await deps.deliberations.start(input);
      const deliberationId = started.state.id;
      if (consult === false) return { deliberationId, ...leanResult(started.state, started.effects), ...related };
      const asked = await consultAndWait(deps, started.state.id, consult ?? {}, extra).catch((error: unknown) => {
        // The deliberation exists though its first consult failed: the refusal names it, to resume with delib_consult.
        if (error instanceof ToolRefusal) throw new ToolRefusal(`deliberation ${started.state.id} is kept with no reply yet: ${error.message}`, error.rule, error.legalMoves);
        throw error;
      });
      return { deliberationId, ...asked, effects: [...started.effects, ...asked.effects], ...related };
    },
  });
