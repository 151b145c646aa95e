import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';
import { DeliberationId, delibResult } from './delib-shared.js';

export const delibStatusTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_status',
    description:
      'With deliberationId: iteration, phase, open challenges, points awaiting you, buckets, and the legal next moves. Without: every stored deliberation (and this session\'s quick ones), to resume one.',
    input: { deliberationId: DeliberationId.optional() },
    output: { deliberationId: z.string().optional(), deliberations: z.array(z.looseObject({ id: z.string() })).optional() },
    effect: 'read',
    async handler({ deliberationId }) {
      if (!deliberationId) return { deliberations: await deps.deliberations.list() };
      const { state, revision } = await deps.deliberations.get(deliberationId);
      return delibResult({ state, revision, effects: [] });
    },
  });
