import { z } from 'zod';
import type { DeliberationState } from '../../schemas/argumentation.js';
import { effectsView, nextLines, replyView, type ItemRefusal } from '../../protocols/argumentation/index.js';
import { afterFailedConsult, type ConsultSettings } from '../consult-service.js';
import { serverRefusal, type MoveOutcome } from '../deliberations.js';
import { briefWithRecord } from '../report-file.js';
import type { ServerDeps } from '../deps.js';
import { reportProgress, ToolRefusal, type ToolExtra } from '../tool-kit.js';
import { sentence } from '../../schemas/user-facing-error.js';

export const DeliberationId = z.string();

/** Consult settings a tool may pass on to Codex. */
export const ConsultOptions = {
  waitSeconds: z.number().min(0).max(600).optional().describe('default 45'),
  cwd: z.string().optional().describe("'empty' for abstract questions"),
  model: z.string().optional(),
  reasoningEffort: z.string().optional(),
};

/** What delib_start returns at least: the id every later call names (their results do not repeat it). */
export const DelibResult = { deliberationId: z.string() };

/** What every later move returns at least: where the deliberation now stands. */
export const MoveResultShape = { at: z.string() };

export type LeanResult = { at: string; effects: string[]; next: string[] } & Record<string, unknown>;

/** A move's result: what changed and what to do next, no more (each call's bytes are read by the model). */
export function leanResult(state: DeliberationState, effects: string[], refused?: ItemRefusal[], replyShown = false): LeanResult {
  return {
    at: `n=${state.n}${state.phase ? ` ${state.phase}` : ''} ${state.status}`,
    effects: effectsView(effects, replyShown),
    ...(refused?.length ? { refused } : {}),
    next: nextLines(state),
  };
}

/** Starts (or joins) the deliberation's consult and waits up to waitSeconds; returns what Codex said, read. */
export async function consultAndWait(deps: ServerDeps, id: string, settings: ConsultSettings & { waitSeconds?: number }, extra: ToolExtra): Promise<LeanResult & { consult: { status: string } & Record<string, unknown> }> {
  const consults = deps.consults;
  let finished = consults.takeFinished(id);
  if (!finished) {
    await consults.start(id, settings);
    let ticks = 0;
    await deps.jobs.wait(consults.jobId(id), (settings.waitSeconds ?? 45) * 1000, (p) => void reportProgress(extra, ++ticks, undefined, p.message), extra.signal);
    finished = consults.takeFinished(id);
  }
  if (!finished) {
    const { state } = await deps.deliberations.get(id);
    return { ...leanResult(state, []), consult: { status: 'running' }, next: ['delib_consult: Codex is still answering; call it to keep waiting'] };
  }
  if ('error' in finished) {
    if (finished.cause instanceof ToolRefusal) throw finished.cause;
    const { state } = await deps.deliberations.get(id);
    throw serverRefusal(state, `the consult failed: ${sentence(finished.error)} The state is unchanged; ${afterFailedConsult(finished.cause)}`, 'consult-failed');
  }
  const { moved, turns, effects } = finished;
  // Codex's turns are news only when there was more than the one asked for: a retry, a recovered session.
  const recovered = turns.some((t) => t.recovered);
  const codex = turns.length > 1 || recovered ? { codex: { turns: turns.length, ...(recovered ? { recovered: true } : {}) } } : {};
  const read = moved.state.replyRecorded ? replyView(moved.state) : undefined;
  // A held synthesis the reply let stand closed the deliberation: this result is the brief for the answer.
  const brief = moved.state.report ? { brief: await closingBrief(deps, moved) } : {};
  return { ...leanResult(moved.state, effects, undefined, !!read), consult: { status: 'done', ...codex, ...(read ? { reply: read } : {}) }, ...brief };
}

/** The brief a closing move returns, its record line naming the full report (the file the move just wrote). */
export async function closingBrief(deps: ServerDeps, moved: MoveOutcome) {
  const file = moved.reportFile && 'path' in moved.reportFile ? moved.reportFile.path : await deps.deliberations.reportFile(moved.state.id);
  return briefWithRecord(moved.state, file);
}
