import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { nextLegalMoves, statusView } from '../../protocols/argumentation/index.js';

export const DeliberationId = z.string();

/** What every argumentation tool returns: what changed, where things stand, what is legal next. */
// The shape ({deliberationId, effects, status, next}) is stated once in the server instructions
// rather than in every tool's outputSchema: tools/list is paid for on every turn.
export const DelibResult = { deliberationId: z.string() };
export interface DelibResultFull {
  deliberationId: string;
  effects: string[];
  status: Record<string, unknown>;
  next: string[];
}

export function delibResult(outcome: { state: DeliberationState; effects: string[]; revision: number | null }): DelibResultFull {
  return {
    deliberationId: outcome.state.id,
    effects: outcome.effects,
    status: { ...(statusView(outcome.state) as Record<string, unknown>), revision: outcome.revision },
    next: nextLegalMoves(outcome.state).flatMap((legal) =>
      // The engine knows reply_record; the server adds the tool that obtains the reply from Codex.
      legal.move === 'reply_record'
        ? [`delib_consult: ask Codex for iteration ${outcome.state.n}; it records the reply`, `reply_record: or record a reply you obtained yourself`]
        : [`${legal.move}: ${legal.why}`],
    ),
  };
}
