import { conflictLines, recordView, searchDecisions } from '../protocols/decisions/index.js';
import type { ServerDeps } from './deps.js';

/**
 * What delib_start adds about the repository's past decisions: the few records related to the
 * question (`related`), the standing ones among them that may contradict (`decisionConflicts`), or
 * nothing at all when the repository keeps no records or none is related. A folder parley cannot
 * read does not stop the deliberation: the result says why it was not searched.
 */
export async function relatedDecisions(deps: ServerDeps, question: string): Promise<Record<string, unknown>> {
  try {
    const found = await searchDecisions(deps.cwd, question);
    if (!found?.hits.length) return {};
    const conflicts = conflictLines(found);
    return { related: found.hits.map((hit) => recordView(hit.record, found.folder.folder)), ...(conflicts.length ? { decisionConflicts: conflicts } : {}) };
  } catch (error) {
    return { decisionsNotSearched: error instanceof Error ? error.message : String(error) };
  }
}
