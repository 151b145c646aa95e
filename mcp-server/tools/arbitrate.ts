import { z } from 'zod';
import { arbitrate, arbitrationJobId, checkArbitration, type ArbitrationOutcome } from '../arbitration.js';
import { defineTool, reportProgress, ToolRefusal } from '../tool-kit.js';
import { serverRefusal } from '../deliberations.js';
import type { ServerDeps } from '../deps.js';
import { MoveResultShape, DeliberationId, leanResult } from './delib-shared.js';
import { sentence } from '../../schemas/user-facing-error.js';

const Flag = z.object({ ref: z.string(), flagged: z.boolean(), note: z.string().optional() });

/** What the reviewer found: the flagged items with its reasons, out of how many, and its remarks. */
function flagsOf(items: z.infer<typeof Flag>[], remarks: string | undefined) {
  const flagged = items.filter((i) => i.flagged).map((i) => ({ ref: i.ref, ...(i.note ? { why: i.note } : {}) }));
  return { flagged, reviewed: items.length, ...(remarks ? { remarks } : {}) };
}

export const arbitrateTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_arbitrate',
    description:
      "Standard mode, after termination: a fresh reviewer (new Codex session, or backend) checks the buckets unattributed; its per-item reasons and remarks go to the report; >= 50% flagged warns. items: record flags you obtained yourself instead. 'running': call again.",
    input: { deliberationId: DeliberationId, backend: z.string().optional(), waitSeconds: z.number().min(0).max(600).optional(), items: z.array(Flag).optional(), remarks: z.string().optional() },
    output: { ...MoveResultShape, arbitration: z.looseObject({ status: z.string() }) },
    effect: 'model-call',
    async handler({ deliberationId, backend, waitSeconds, items, remarks }, extra) {
      if (items) {
        const moved = await deps.deliberations.apply(deliberationId, 'arbitration_record', { items, ...(remarks ? { remarks } : {}), reviewer: 'given by the orchestrator' });
        return { ...leanResult(moved.state, moved.effects), arbitration: { status: 'done', ...flagsOf(items, remarks) } } as never;
      }
      const jobId = arbitrationJobId(deliberationId);
      let finished = deps.jobs.takeFinished<ArbitrationOutcome>(jobId);
      if (!finished) {
        if (deps.jobs.get(jobId)?.status !== 'running') {
          await checkArbitration(deps, deliberationId, { backend });
          deps.jobs.start(jobId, 'arbitration', (signal) => arbitrate(deps, deliberationId, backend, signal));
        }
        await deps.jobs.wait(jobId, (waitSeconds ?? 45) * 1000, (p) => void reportProgress(extra, p.done, p.total, p.message), extra.signal);
        finished = deps.jobs.takeFinished<ArbitrationOutcome>(jobId);
      }
      if (!finished) {
        const { state } = await deps.deliberations.get(deliberationId);
        return { ...leanResult(state, []), arbitration: { status: 'running' }, next: ['delib_arbitrate: the reviewer is still answering; call it to keep waiting'] } as never;
      }
      if (!finished.ok) {
        if (finished.cause instanceof ToolRefusal) throw finished.cause;
        const { state } = await deps.deliberations.get(deliberationId);
        throw serverRefusal(state, `the arbitration failed: ${sentence(finished.error)} The state is unchanged; call delib_arbitrate again`, 'arbitration-failed');
      }
      const { moved, items: flags, remarks: said } = finished.result;
      // The report was already read once: the arbitration is what is new (the stored report now carries it).
      return { ...leanResult(moved.state, moved.effects), arbitration: { status: 'done', ...flagsOf(flags, said) } } as never;
    },
  });
