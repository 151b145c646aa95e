import { z } from 'zod';
import { replyView } from '../../protocols/argumentation/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { ConsultOptions, consultAndWait, MoveResultShape, DeliberationId, leanResult } from './delib-shared.js';

export const consultTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_consult',
    description:
      "Asks Codex (read-only) for this iteration and returns its reply as read: new points in full, answers to challenges, parts to check. consult.status 'running': call again to keep waiting. reply: record a reply you obtained yourself instead.",
    input: { deliberationId: DeliberationId, ...ConsultOptions, reply: z.string().optional(), cancel: z.boolean().optional() },
    output: { ...MoveResultShape, consult: z.looseObject({ status: z.string() }) },
    effect: 'model-call',
    async handler({ deliberationId, waitSeconds, cwd, model, reasoningEffort, reply, cancel }, extra) {
      const consults = deps.consults;
      if (cancel) {
        const jobId = consults.jobId(deliberationId);
        deps.jobs.cancel(jobId);
        await deps.jobs.wait(jobId, 10_000);
        consults.takeFinished(deliberationId);
        const { state } = await deps.deliberations.get(deliberationId);
        return { ...leanResult(state, ['consult canceled; the state is unchanged']), consult: { status: 'canceled' } };
      }
      if (reply !== undefined) {
        const { moved } = await consults.recordOwn(deliberationId, reply);
        return { ...leanResult(moved.state, moved.effects, undefined, moved.state.replyRecorded), consult: { status: 'done', ...(moved.state.replyRecorded ? { reply: replyView(moved.state) } : {}) } };
      }
      return consultAndWait(deps, deliberationId, { waitSeconds, cwd, model, reasoningEffort }, extra);
    },
  });
