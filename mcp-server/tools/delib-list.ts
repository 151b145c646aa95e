import { z } from 'zod';
import { defineTool } from '../tool-kit.js';
import type { ServerDeps } from '../deps.js';

export const delibListTool = (deps: ServerDeps) =>
  defineTool({
    name: 'delib_list',
    description: 'Every stored deliberation (and the quick ones of this session) with its question, mode, iteration and status; resume one by passing its id to any delib tool.',
    input: {},
    output: { deliberations: z.array(z.object({ id: z.string(), updatedAt: z.string().optional(), summary: z.unknown().optional(), problem: z.string().optional() })) },
    effect: 'read',
    async handler() {
      return { deliberations: await deps.deliberations.list() };
    },
  });
