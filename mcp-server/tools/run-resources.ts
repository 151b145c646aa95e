import { readFile } from 'node:fs/promises';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { assertSafeId } from '../../state/paths.js';
import { redact } from '../../schemas/secrets.js';
import type { ServerDeps } from '../deps.js';
import { TOOL_PROFILES, type ToolGroup } from '../tool-profiles.js';

const id = (value: string | string[] | undefined): string => assertSafeId(Array.isArray(value) ? (value[0] ?? '') : (value ?? ''), 'id');

/** What each run file resource serves, and how it is made from the run. */
const RUN_FILES: Record<string, { mimeType: string; description: string; read(deps: ServerDeps, runId: string): Promise<string> }> = {
  'output.json': { mimeType: 'application/json', description: "the run's output (dialogic: the seed's JSON; debate: the transcript)", read: async (deps, runId) => readFile((await deps.runs.status(runId)).files.output, 'utf8') },
  'audit.jsonl': { mimeType: 'application/jsonl', description: 'every prompt, raw reply, parse and verdict of the run', read: async (deps, runId) => readFile((await deps.runs.status(runId)).files.audit, 'utf8') },
  'measures.json': {
    mimeType: 'application/json',
    description: 'the measures recomputed from the output',
    read: async (deps, runId) => {
      const { meta, output } = await deps.runs.output(runId);
      return JSON.stringify((await deps.runs.analyze(meta.protocol, output, runId)).measures, null, 2);
    },
  },
  'graph.dot': {
    mimeType: 'text/vnd.graphviz',
    description: 'debate runs: the debate graph as DOT',
    read: async (deps, runId) => {
      const { meta, output } = await deps.runs.output(runId);
      if (meta.protocol !== 'debate') throw new Error(`run ${runId} is a ${meta.protocol} run: only debates have a graph`);
      const { analyzeDebate, exportGraph } = await import('../../protocols/debate/index.js');
      return exportGraph(analyzeDebate(output), 'dot');
    },
  },
};

/** Run files and deliberation state as MCP resources: parley://runs/{runId}/<file>, parley://deliberations/{id}/<file>. */
export function registerRunResources(server: McpServer, deps: ServerDeps, groups: ReadonlySet<ToolGroup> = new Set(TOOL_PROFILES.all)): void {
  if (groups.has('runs')) registerRunFiles(server, deps);
  if (groups.has('argumentation')) registerDeliberationFiles(server, deps);
}

function registerRunFiles(server: McpServer, deps: ServerDeps): void {
  for (const [file, spec] of Object.entries(RUN_FILES)) {
    server.registerResource(
      `run-${file.replace('.', '-')}`,
      new ResourceTemplate(`parley://runs/{runId}/${file}`, { list: undefined }),
      { description: spec.description, mimeType: spec.mimeType },
      async (uri, { runId }): Promise<ReadResourceResult> => ({ contents: [{ uri: uri.href, mimeType: spec.mimeType, text: redact(await spec.read(deps, id(runId))) }] }),
    );
  }
}

function registerDeliberationFiles(server: McpServer, deps: ServerDeps): void {
  server.registerResource(
    'deliberation-state',
    new ResourceTemplate('parley://deliberations/{id}/state.json', { list: undefined }),
    { description: "a deliberation's whole state (ledger, challenges, points, buckets)", mimeType: 'application/json' },
    async (uri, vars): Promise<ReadResourceResult> => {
      const { state } = await deps.deliberations.get(id(vars.id));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: redact(JSON.stringify(state, null, 2)) }] };
    },
  );
  server.registerResource(
    'deliberation-audit',
    new ResourceTemplate('parley://deliberations/{id}/audit.jsonl', { list: undefined }),
    { description: "a deliberation's audit log: every move, consult prompt and raw reply", mimeType: 'application/jsonl' },
    async (uri, vars): Promise<ReadResourceResult> => {
      const deliberationId = id(vars.id);
      await deps.deliberations.get(deliberationId);
      const text = await readFile(deps.deliberations.store.auditLogPath(deliberationId), 'utf8').catch(() => '');
      return { contents: [{ uri: uri.href, mimeType: 'application/jsonl', text: redact(text) }] };
    },
  );
}
