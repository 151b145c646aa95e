import { z } from 'zod';
import type { RunMeta } from '../runs.js';

export const RunId = z.string().describe('run id from run_start');

export const RunView = z.object({
  runId: z.string(),
  protocol: z.string(),
  status: z.enum(['running', 'succeeded', 'failed', 'canceled', 'interrupted']),
  progress: z.object({ done: z.number(), total: z.number().optional(), message: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  error: z.string().optional(),
  files: z.object({ output: z.string(), audit: z.string() }),
});

export function runView(meta: RunMeta): z.infer<typeof RunView> {
  return {
    runId: meta.runId,
    protocol: meta.protocol,
    status: meta.status,
    progress: meta.progress,
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    ...(meta.error ? { error: meta.error } : {}),
    files: { output: meta.files.output, audit: meta.files.audit },
  };
}
