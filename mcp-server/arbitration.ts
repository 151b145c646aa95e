import { buildArbitrationPrompt } from '../protocols/argumentation/index.js';
import { parseArbitrationReply } from './arbitration-reply.js';
import type { ServerDeps } from './deps.js';
import type { MoveOutcome } from './deliberations.js';
import { ToolRefusal } from './tool-kit.js';

export interface ArbitrationOutcome {
  moved: MoveOutcome;
  flagged: string[];
}

export const arbitrationJobId = (deliberationId: string): string => `arbitrate-${deliberationId}`;

/** Refuses what the protocol forbids before any model call: wrong mode, nothing in the buckets. */
export async function checkArbitration(deps: ServerDeps, deliberationId: string): Promise<string[]> {
  const { state } = await deps.deliberations.get(deliberationId);
  if (state.mode !== 'standard') throw new ToolRefusal(`${state.mode} mode has no arbitration (standard mode only)`, `mode-${state.mode}`, ['delib_synthesize']);
  const refs = [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].map((item) => item.pointId);
  if (refs.length === 0) throw new ToolRefusal('nothing to arbitrate yet: no point is in a bucket', 'arbitration-empty', ['bucket_assign', 'delib_synthesize']);
  return refs;
}

/** A fresh reviewer (a new session, no attribution) flags bucket items; the flags go through arbitration_record. */
export async function arbitrate(deps: ServerDeps, deliberationId: string, backendSpec: string | undefined, signal: AbortSignal): Promise<ArbitrationOutcome> {
  const refs = await checkArbitration(deps, deliberationId);
  const { state } = await deps.deliberations.get(deliberationId);
  const prompt = buildArbitrationPrompt(state);
  const audit = deps.deliberations.store.auditLog(deliberationId);
  await audit.append({ type: 'arbitration-request', backend: backendSpec ?? 'codex (fresh session)', prompt });
  const reviewer = deps.backendFor(backendSpec ?? `codex${deps.env.PARLEY_CODEX_MODEL ? `:${deps.env.PARLEY_CODEX_MODEL}` : ''}`);
  const reply = await reviewer.send({ history: [] }, prompt, { timeoutMs: Number(deps.env.PARLEY_CONSULT_TIMEOUT_MS) || 600_000, signal });
  const items = parseArbitrationReply(reply.text, refs);
  await audit.append({ type: 'arbitration-reply', reply: reply.text, usage: reply.usage, items });
  if (items.length === 0) throw new ToolRefusal(`the reviewer's reply named none of ${refs.join(', ')}; call delib_arbitrate again, or record flags yourself with arbitration_record`);
  const moved = await deps.deliberations.apply(deliberationId, 'arbitration_record', { items });
  return { moved, flagged: items.filter((item) => item.flagged).map((item) => item.ref) };
}
