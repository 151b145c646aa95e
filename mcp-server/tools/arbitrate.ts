import { z } from 'zod';
import { buildArbitrationPrompt } from '../../protocols/argumentation/index.js';
import { parseArbitrationReply } from '../arbitration-reply.js';
import { defineTool, ToolRefusal } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DelibResult, DeliberationId, delibResult } from './delib-shared.js';

export const arbitrateTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_arbitrate',
    description:
      'Standard mode: a fresh reviewer (new Codex session, or backend) checks the buckets unattributed; flags lower confidence, >= 50% flagged warns.',
    input: { deliberationId: DeliberationId, backend: z.string().optional() },
    output: { ...DelibResult, flagged: z.array(z.string()) },
    effect: 'model-call',
    async handler({ deliberationId, backend }) {
      const { state } = await deps.deliberations.get(deliberationId);
      if (state.mode !== 'standard') throw new ToolRefusal(`${state.mode} mode has no arbitration (standard mode only)`, `mode-${state.mode}`, ['delib_synthesize']);
      const refs = [...state.buckets.agreed, ...state.buckets.dismissed, ...state.buckets.unresolved].map((item) => item.pointId);
      if (refs.length === 0) throw new ToolRefusal('nothing to arbitrate yet: no point is in a bucket', 'arbitration-empty', ['bucket_assign', 'delib_synthesize']);
      const prompt = buildArbitrationPrompt(state);
      const audit = deps.deliberations.store.auditLog(deliberationId);
      await audit.append({ type: 'arbitration-request', backend: backend ?? 'codex (fresh session)', prompt });
      const reviewer = deps.backendFor(backend ?? `codex${deps.env.PARLEY_CODEX_MODEL ? `:${deps.env.PARLEY_CODEX_MODEL}` : ''}`);
      const reply = await reviewer.send({ history: [] }, prompt, { timeoutMs: Number(deps.env.PARLEY_CONSULT_TIMEOUT_MS) || 600_000 });
      const items = parseArbitrationReply(reply.text, refs);
      await audit.append({ type: 'arbitration-reply', reply: reply.text, usage: reply.usage, items });
      if (items.length === 0) throw new ToolRefusal(`the reviewer's reply named none of ${refs.join(', ')}; call delib_arbitrate again, or record flags yourself with arbitration_record`);
      const moved = await deps.deliberations.apply(deliberationId, 'arbitration_record', { items });
      return { ...delibResult(moved), flagged: items.filter((item) => item.flagged).map((item) => item.ref) };
    },
  });
