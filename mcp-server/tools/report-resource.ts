import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { assertSafeId } from '../../state/paths.js';
import { redact } from '../../schemas/secrets.js';
import { decisionRecordMarkdown } from '../../protocols/argumentation/index.js';
import { deliberationReport } from '../report-file.js';
import { visibleControls } from '../../schemas/visible-controls.js';
import type { ServerDeps } from '../deps.js';
import { TOOL_PROFILES, type ToolGroup } from '../tool-profiles.js';

const registered = new WeakSet<McpServer>();
// Reports pull in Vega and Graphviz: load them on the first read, not at server start.
const reports = () => import('../../protocols/report/index.js');

/** A report as published: known secrets scrubbed, a model's control characters written as escapes. */
const published = (text: string): string => visibleControls(redact(text));

const one = (value: string | string[] | undefined): string => assertSafeId(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''), 'id');

async function runSource(deps: ServerDeps, runId: string) {
  const meta = await deps.runs.status(runId);
  if (meta.status !== 'succeeded') throw new Error(`run ${runId} is ${meta.status}: its report exists once it has succeeded (poll run_status)`);
  return (await reports()).loadReportSource(meta.files.output);
}

/**
 * Reports as MCP resources (`published`: a report quotes replies and errors verbatim): `parley://runs/{runId}/report.md` and `.html` for server-run protocols,
 * `parley://deliberations/{id}/report.md` and `decision.md` (MADR) for argumentation. Registering twice on one server is a no-op.
 */
export function registerReportResources(server: McpServer, deps: ServerDeps, groups: ReadonlySet<ToolGroup> = new Set(TOOL_PROFILES.all)): void {
  if (registered.has(server)) return;
  registered.add(server);
  if (groups.has('runs')) registerRunReports(server, deps);
  if (groups.has('argumentation')) registerDeliberationReport(server, deps);
}

function registerRunReports(server: McpServer, deps: ServerDeps): void {
  const listRuns = (ext: 'md' | 'html', mimeType: string) => async () => ({
    resources: (await deps.runs.list())
      .filter((run) => run.status === 'succeeded')
      .map((run) => ({ uri: `parley://runs/${run.runId}/report.${ext}`, name: `${run.protocol} run ${run.runId} report`, mimeType })),
  });

  server.registerResource(
    'run-report-md',
    new ResourceTemplate('parley://runs/{runId}/report.md', { list: listRuns('md', 'text/markdown') }),
    { title: 'Run report (Markdown)', description: 'Measures and summary of a finished dialogic or debate run', mimeType: 'text/markdown' },
    async (uri, { runId }): Promise<ReadResourceResult> => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: published((await reports()).reportMarkdown(await runSource(deps, one(runId)))) }],
    }),
  );

  server.registerResource(
    'run-report-html',
    new ResourceTemplate('parley://runs/{runId}/report.html', { list: listRuns('html', 'text/html') }),
    { title: 'Run report (HTML)', description: 'Self-contained offline HTML report of a finished run, with graph and charts', mimeType: 'text/html' },
    async (uri, { runId }): Promise<ReadResourceResult> => ({
      contents: [{ uri: uri.href, mimeType: 'text/html', text: published(await (await reports()).reportHtml(await runSource(deps, one(runId)))) }],
    }),
  );
}

function registerDeliberationReport(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    'deliberation-report-md',
    new ResourceTemplate('parley://deliberations/{id}/report.md', { list: undefined }),
    { title: 'Deliberation report (Markdown)', description: 'The full report of an argumentation deliberation: answer, claims by bucket with their history, challenges and ledger', mimeType: 'text/markdown' },
    async (uri, { id }): Promise<ReadResourceResult> => {
      const { state } = await deps.deliberations.get(one(id));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: published(await deliberationReport(deps.deliberations.store, state)) }] };
    },
  );
  server.registerResource(
    'deliberation-decision-md',
    new ResourceTemplate('parley://deliberations/{id}/decision.md', { list: undefined }),
    { title: 'Deliberation decision record (MADR)', description: 'A synthesized deliberation as an architecture decision record (MADR): context, options, decision, consequences', mimeType: 'text/markdown' },
    async (uri, { id }): Promise<ReadResourceResult> => {
      const { state } = await deps.deliberations.get(one(id));
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: published(decisionRecordMarkdown(state)) }] };
    },
  );
}
