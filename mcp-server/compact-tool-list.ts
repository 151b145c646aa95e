import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

type ListHandler = (request: unknown, extra: unknown) => Promise<ListToolsResult> | ListToolsResult;

/**
 * tools/list is paid for in every client's context on every turn, so parley trims what carries no
 * information for a model: the `$schema` line of every schema and the default `execution` block.
 * The SDK's own handler still builds the list (tools stay registered with registerTool only); this
 * wraps it. The SDK keeps its handlers in a private map: a test fails loudly if that ever changes.
 */
export function compactToolList(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, ListHandler> })._requestHandlers;
  const original = handlers?.get('tools/list');
  if (!original) throw new Error('the MCP SDK no longer exposes its tools/list handler; update compact-tool-list.ts');
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const result = await original(request, extra);
    return { ...result, tools: result.tools.map(compactTool) };
  });
}

function compactTool(tool: ListToolsResult['tools'][number]): ListToolsResult['tools'][number] {
  const { execution, ...rest } = tool as typeof tool & { execution?: { taskSupport?: string } };
  const keepExecution = execution && execution.taskSupport !== 'forbidden';
  return {
    ...rest,
    inputSchema: withoutSchemaKey(tool.inputSchema),
    ...(tool.outputSchema ? { outputSchema: withoutSchemaKey(tool.outputSchema) } : {}),
    ...(keepExecution ? { execution } : {}),
  } as typeof tool;
}

function withoutSchemaKey<T extends object>(schema: T): T {
  const { $schema: _drop, ...rest } = schema as T & { $schema?: string };
  return rest as T;
}
