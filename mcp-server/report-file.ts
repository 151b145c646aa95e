import { stat, unlink } from 'node:fs/promises';
import { answerBrief, deliberationMarkdown, type AnswerBrief } from '../protocols/argumentation/index.js';
import type { DeliberationState } from '../schemas/argumentation.js';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { AuditRecord } from '../state/audit-log.js';
import type { DocumentStore } from '../state/document-store.js';
import { nodeFs } from '../state/fs-seam.js';
import { keepPrivate } from '../state/private-files.js';

/**
 * The full report of a deliberation, as a file beside its state (`<id>.report.md`, rewritten with
 * every change once it is synthesized) and as the resource parley://deliberations/{id}/report.md:
 * the same Markdown either way, rendered from the state and, for the dates, its audit log. Quick
 * deliberations keep nothing on disk: their report is served from memory only.
 */

export const reportUri = (id: string) => `parley://deliberations/${id}/report.md`;
export const decisionUri = (id: string) => `parley://deliberations/${id}/decision.md`;

/** The audit log, or why it could not be read (the error's message names the file, never its content). */
async function readAudit(store: DocumentStore<DeliberationState>, id: string): Promise<{ audit: AuditRecord[]; unreadable?: string }> {
  try {
    return { audit: await store.auditLog(id).readAll() };
  } catch (error) {
    return { audit: [], unreadable: error instanceof Error ? error.message : String(error) };
  }
}

/** Under the title: the record that follows is the state's alone. */
function withNote(markdown: string, reason: string): string {
  const note = `> **The audit log could not be read** (${reason}): the record below comes from the state alone, without its dates.`;
  const [title, ...rest] = markdown.split('\n\n');
  return title?.startsWith('# ') ? [title, note, ...rest].join('\n\n') : `${note}\n\n${markdown}`;
}

export async function deliberationReport(store: DocumentStore<DeliberationState>, state: DeliberationState): Promise<string> {
  const { audit, unreadable } = state.mode === 'quick' ? { audit: [] } : await readAudit(store, state.id);
  const markdown = deliberationMarkdown(state, { audit });
  return unreadable ? withNote(markdown, unreadable) : markdown;
}

/** Every Markdown file parley writes for a deliberation goes through here: atomic, private, secrets scrubbed. */
export async function writeMarkdownFile(path: string, markdown: string): Promise<void> {
  await writeFileAtomic(nodeFs, path, markdown);
  await keepPrivate(path);
}

/**
 * Rewrites the report file of a synthesized deliberation. When it cannot, the old file goes too: a
 * report that no longer matches the state is worse than none. Returns what happened, for the result.
 */
export async function writeReportFile(store: DocumentStore<DeliberationState>, path: string, state: DeliberationState): Promise<{ path: string } | { error: string }> {
  try {
    await writeMarkdownFile(path, await deliberationReport(store, state));
    return { path };
  } catch (error) {
    await unlink(path).catch(() => undefined);
    return { error: `the report file ${path} could not be written (${error instanceof Error ? error.message : String(error)}); read the resource ${reportUri(state.id)}` };
  }
}

export async function existingFile(path: string | undefined): Promise<string | undefined> {
  if (!path) return undefined;
  return (await stat(path).catch(() => undefined))?.isFile() ? path : undefined;
}

/** The brief for the orchestrator's answer, its record line naming where the full report is: what the closing result and a finished deliberation's status return. */
export function briefWithRecord(state: DeliberationState, file: string | undefined): AnswerBrief {
  const brief = answerBrief(state);
  return { ...brief, record: `${brief.record}: ${file ?? reportUri(state.id)}; decision record: ${decisionUri(state.id)}` };
}
