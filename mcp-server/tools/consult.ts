import { z } from 'zod';
import { defineTool, reportProgress, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, DeliberationId, delibResult } from './delib-shared.js';

export const consultTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_consult',
    description:
      "Asks Codex (read-only) for this iteration and records its reply (reply_record). Waits up to waitSeconds (default 45); consult.status 'running' means call delib_consult again to keep waiting. cwd: 'empty' for abstract questions.",
    input: {
      deliberationId: DeliberationId,
      waitSeconds: z.number().min(0).max(600).optional(),
      cwd: z.string().optional(),
      model: z.string().optional(),
      reasoningEffort: z.string().optional(),
      cancel: z.boolean().optional(),
    },
    output: { ...DelibResult, consult: z.looseObject({ status: z.string() }) },
    effect: 'model-call',
    async handler({ deliberationId, waitSeconds, cwd, model, reasoningEffort, cancel }, extra) {
      const consults = deps.consults;
      const jobId = consults.jobId(deliberationId);
      if (cancel) {
        deps.jobs.cancel(jobId);
        await deps.jobs.wait(jobId, 10_000);
        const { state, revision } = await deps.deliberations.get(deliberationId);
        consults.takeFinished(deliberationId);
        return { ...delibResult({ state, revision, effects: ['consult canceled; the state is unchanged'] }), consult: { status: 'canceled' } };
      }
      let finished = consults.takeFinished(deliberationId);
      if (!finished) {
        await consults.start(deliberationId, { cwd, model, reasoningEffort });
        let ticks = 0;
        await deps.jobs.wait(jobId, (waitSeconds ?? 45) * 1000, (p) => void reportProgress(extra, ++ticks, undefined, p.message), extra.signal);
        finished = consults.takeFinished(deliberationId);
      }
      if (!finished) {
        const { state, revision } = await deps.deliberations.get(deliberationId);
        return { ...delibResult({ state, revision, effects: [] }), consult: { status: 'running', hint: 'call delib_consult again to keep waiting' } };
      }
      if ('error' in finished) throw new ToolRefusal(`the consult failed: ${finished.error}. The state is unchanged; fix the cause and call delib_consult again`);
      const { moved, reply, kind, sessionId, usage, promptBytes, durationMs, recovered } = finished;
      return { ...delibResult(moved), consult: { status: 'done', kind, recovered, sessionId, usage, promptBytes, durationMs, reply } };
    },
  });
