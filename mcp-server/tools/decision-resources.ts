import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { findRecord, listLines, openDecisionFolder, requireDecisionFolder, searchLines, indexDecisions } from '../../protocols/decisions/index.js';
import { redact } from '../../schemas/secrets.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { visibleControls } from '../../schemas/visible-controls.js';
import type { ServerDeps } from '../deps.js';

/**
 * The repository's decision records as resources, what `parley decisions list|show|search` prints:
 * `parley://decisions` (one line each), `parley://decisions/{number}` (a record as written) and
 * `parley://decisions/search?q=words` (the related ones, or a sentence saying none is). Resources
 * cost tools/list nothing.
 */

const text = (uri: URL, body: string, mimeType = 'text/plain'): ReadResourceResult => ({ contents: [{ uri: uri.href, mimeType, text: visibleControls(redact(body)) }] });
const lines = (all: string[]) => `${all.join('\n')}\n`;

export function registerDecisionResources(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    'decision-records',
    'parley://decisions',
    { title: 'Decision records (ADRs)', description: "This repository's decision records, one line each: number, title, date, status", mimeType: 'text/plain' },
    async (uri) => text(uri, lines(listLines(await requireDecisionFolder(deps.cwd)))),
  );
  server.registerResource(
    'decision-search',
    new ResourceTemplate('parley://decisions/search{?q}', { list: undefined }),
    { title: 'Related decision records', description: 'The decision records related to some words (q), best first, and standing ones that may contradict', mimeType: 'text/plain' },
    async (uri, { q }) => {
      const words = decodeURIComponent(String(Array.isArray(q) ? q.join(' ') : (q ?? '')).replace(/\+/g, ' '));
      if (!words.trim()) throw new UserFacingError('give the words to search for: parley://decisions/search?q=message%20broker');
      const folder = await requireDecisionFolder(deps.cwd);
      return text(uri, lines(searchLines(indexDecisions(folder.records).search(words), words, folder)));
    },
  );
  server.registerResource(
    'decision-record',
    new ResourceTemplate('parley://decisions/{number}', {
      list: async () => {
        const folder = await openDecisionFolder(deps.cwd).catch(() => undefined);
        return { resources: (folder?.records ?? []).map((r) => ({ uri: `parley://decisions/${r.id}`, name: `ADR-${r.id} ${r.title}`, mimeType: 'text/markdown' })) };
      },
    }),
    { title: 'Decision record', description: 'One decision record of this repository, as written', mimeType: 'text/markdown' },
    async (uri, { number }) => {
      const folder = await requireDecisionFolder(deps.cwd);
      const record = findRecord(folder, String(number));
      return text(uri, folder.texts.get(record.file) ?? '', 'text/markdown');
    },
  );
}
