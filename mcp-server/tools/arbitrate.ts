import { z } from 'zod';
import { arbitrate, arbitrationJobId, checkArbitration, type ArbitrationOutcome } from '../arbitration.js';
import { defineTool, reportProgress, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, DeliberationId, delibResult } from './delib-shared.js';

export const arbitrateTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_arbitrate',
    description:
      "Standard mode: a fresh reviewer (new Codex session, or backend) checks the buckets unattributed; >= 50% flagged warns. 'running': call again.",
    input: { deliberationId: DeliberationId, backend: z.string().optional(), waitSeconds: z.number().min(0).max(600).optional() },
    output: { ...DelibResult, arbitration: z.looseObject({ status: z.string() }) },
    effect: 'model-call',
    async handler({ deliberationId, backend, waitSeconds }, extra) {
      const jobId = arbitrationJobId(deliberationId);
      let finished = deps.jobs.takeFinished<ArbitrationOutcome>(jobId);
      if (!finished) {
        if (deps.jobs.get(jobId)?.status !== 'running') {
          await checkArbitration(deps, deliberationId);
          deps.jobs.start(jobId, 'arbitration', (signal) => arbitrate(deps, deliberationId, backend, signal));
        }
        await deps.jobs.wait(jobId, (waitSeconds ?? 45) * 1000, (p) => void reportProgress(extra, p.done, p.total, p.message), extra.signal);
        finished = deps.jobs.takeFinished<ArbitrationOutcome>(jobId);
      }
      if (!finished) {
        const { state, revision } = await deps.deliberations.get(deliberationId);
        return { ...delibResult({ state, revision, effects: [] }), arbitration: { status: 'running', hint: 'call delib_arbitrate again to keep waiting' } };
      }
      if (!finished.ok) throw new ToolRefusal(`the arbitration failed: ${finished.error}. The state is unchanged; call delib_arbitrate again`);
      return { ...delibResult(finished.result.moved), arbitration: { status: 'done', flagged: finished.result.flagged } };
    },
  });
