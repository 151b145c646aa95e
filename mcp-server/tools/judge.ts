import { z } from 'zod';
import { effectsView, JudgeInput } from '../../protocols/argumentation/index.js';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import { serverRefusal } from '../deliberations.js';
import type { ServerDeps } from '../deps.js';
import { closingBrief, ConsultOptions, consultAndWait, MoveResultShape, DeliberationId, leanResult } from './delib-shared.js';

export const judgeTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_judge',
    description:
      'Your whole judgment of an iteration in one call, applied item by item under the rules: ledger facts, reading corrections, points (triage, verdict, bucket), challenge verdicts, stress test, then phase.advance, which asks Codex for the next iteration (consult: false to not) or ends the deliberation (synthesis then returns the brief for your answer). Refused items come back with their rule and legal actions; the advance waits until none is refused.',
    input: { deliberationId: DeliberationId, ...JudgeInput.shape, consult: z.union([z.literal(false), z.object(ConsultOptions)]).optional() },
    output: { ...MoveResultShape },
    effect: 'model-call',
    async handler(args, extra) {
      const { deliberationId, consult, ...judgment } = args;
      const before = await deps.deliberations.get(deliberationId);
      if (deps.consults.running(deliberationId)) {
        throw serverRefusal(before.state, 'Codex is still answering this iteration; wait for it with delib_consult, then judge', 'consult-running');
      }
      const moved = await deps.deliberations.apply(deliberationId, 'judge', judgment);
      const result = leanResult(moved.state, moved.effects, moved.refused);
      const advanced = moved.state.n !== before.state.n;
      if (moved.state.status === 'active' && advanced && !moved.state.replyRecorded && consult !== false) {
        const asked = await consultAndWait(deps, deliberationId, consult ?? {}, extra).catch((error: unknown) => {
          // The judgment is applied whatever the consult does: a refusal that hid it would invite sending it twice.
          if (error instanceof ToolRefusal) throw new ToolRefusal(`the judgment was applied (${moved.effects.join('; ')}), but ${error.message}`, error.rule, error.legalMoves);
          throw error;
        });
        return { ...asked, effects: effectsView([...moved.effects, ...asked.effects], asked.consult.status === 'done'), ...(moved.refused?.length ? { refused: moved.refused } : {}) };
      }
      // The judgment that synthesized closes the deliberation: its result is the brief for the answer to the user.
      const closed = moved.state.report && (!before.state.report || judgment.synthesis);
      return { ...result, ...(closed ? { brief: await closingBrief(deps, moved) } : {}) };
    },
  });
