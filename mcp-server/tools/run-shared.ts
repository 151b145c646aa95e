import { z } from 'zod';
import type { RunMeta } from '../runs.js';

/** Run ids become folder names (SafeId: at most 64 characters); a longer one is refused by the schema. */
export const RunId = z.string().max(64);

/** A run as tools show it; `status` is running | succeeded | failed | canceled | interrupted. */
export const RunView = z.looseObject({});

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
