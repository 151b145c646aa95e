import { z } from 'zod';
import { statusView } from '../../protocols/argumentation/index.js';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { briefWithRecord } from '../report-file.js';
import { DeliberationId } from './delib-shared.js';

export const delibStatusTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_status',
    description:
      "With deliberationId: the whole state (points awaiting you in full, open challenges, buckets, ledger, stress test) and the legal next moves. Without: every stored deliberation (and this session's quick ones), to resume one.",
    input: { deliberationId: DeliberationId.optional() },
    output: { deliberationId: z.string().optional(), deliberations: z.array(z.looseObject({ id: z.string() })).optional() },
    effect: 'read',
    async handler({ deliberationId }) {
      if (!deliberationId) return { deliberations: await deps.deliberations.list() };
      const { state, revision } = await deps.deliberations.get(deliberationId);
      const view = statusView(state);
      if (!state.report) return { deliberationId: state.id, revision, ...view };
      return { deliberationId: state.id, revision, ...view, brief: briefWithRecord(state, await deps.deliberations.reportFile(state.id)) };
    },
  });
