import { arbitrationPrecheck, arbitrationRefs, buildArbitrationPrompt, parseArbitrationReply } from '../protocols/argumentation/index.js';
import type { ServerDeps } from './deps.js';
import { serverRefusal, throwIfRefused, type MoveOutcome } from './deliberations.js';
import { refuseUnreadyModels } from './model-checks.js';

export interface ArbitrationOutcome {
  moved: MoveOutcome;
  items: { ref: string; flagged: boolean; note?: string }[];
  remarks?: string;
}

export const arbitrationJobId = (deliberationId: string): string => `arbitrate-${deliberationId}`;

/** The reviewer's model: the backend asked for, else a fresh Codex session. */
const reviewerSpec = (deps: ServerDeps, backendSpec: string | undefined): string => backendSpec ?? `codex${deps.env.PARLEY_CODEX_MODEL ? `:${deps.env.PARLEY_CODEX_MODEL}` : ''}`;

/**
 * Asks the engine whether arbitration may be recorded now, then, given the reviewer's backend (the
 * tool, before it starts the job), whether that model can be called: before any call is spent on it.
 */
export async function checkArbitration(deps: ServerDeps, deliberationId: string, reviewer?: { backend: string | undefined }): Promise<void> {
  const { state } = await deps.deliberations.get(deliberationId);
  throwIfRefused(arbitrationPrecheck(state));
  if (reviewer) await refuseUnreadyModels(deps.checkModels, [{ label: 'the reviewer', spec: reviewerSpec(deps, reviewer.backend) }], 'the arbitration', state);
}

/** A fresh reviewer (a new session, no attribution) flags bucket items; flags, notes and remarks are recorded. */
export async function arbitrate(deps: ServerDeps, deliberationId: string, backendSpec: string | undefined, signal: AbortSignal): Promise<ArbitrationOutcome> {
  await checkArbitration(deps, deliberationId);
  const { state } = await deps.deliberations.get(deliberationId);
  const refs = arbitrationRefs(state);
  const prompt = buildArbitrationPrompt(state);
  const audit = deps.deliberations.store.auditLog(deliberationId);
  const reviewer = reviewerSpec(deps, backendSpec);
  await audit.append({ type: 'arbitration-request', backend: backendSpec ?? 'codex (fresh session)', prompt });
  const reply = await deps.backendFor(reviewer).send({ history: [] }, prompt, { timeoutMs: Number(deps.env.PARLEY_CONSULT_TIMEOUT_MS) || 600_000, signal });
  const read = parseArbitrationReply(reply.text, refs);
  await audit.append({ type: 'arbitration-reply', reply: reply.text, usage: reply.usage, items: read.items, remarks: read.remarks ?? null });
  if (read.items.length === 0) {
    throw serverRefusal(state, `the reviewer's reply named none of ${refs.join(', ')}; call delib_arbitrate again, or give the flags yourself (items)`, 'arbitration-unreadable');
  }
  // Items the reviewer skipped count as unflagged, and say so: coverage is the engine's rule.
  const named = new Set(read.items.map((i) => i.ref));
  const items = [...read.items, ...refs.filter((ref) => !named.has(ref)).map((ref) => ({ ref, flagged: false, note: 'not mentioned by the reviewer' }))];
  const moved = await deps.deliberations.apply(deliberationId, 'arbitration_record', { items, ...(read.remarks ? { remarks: read.remarks } : {}), reviewer });
  return { moved, items, ...(read.remarks ? { remarks: read.remarks } : {}) };
}
