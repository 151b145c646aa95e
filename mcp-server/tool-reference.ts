import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createDeps } from './deps.js';
import { createServer } from './server.js';
import { productionDepsOptions } from './production.js';

/** The tools exactly as a client sees them over MCP. */
export async function listRegisteredTools(): Promise<Tool[]> {
  const server = createServer(createDeps({ ...(await productionDepsOptions()), home: '/nonexistent-parley-reference' }));
  const client = new Client({ name: 'parley-reference', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const { tools } = await client.listTools();
  await client.close();
  await server.close();
  return tools;
}

export async function toolReferenceMarkdown(): Promise<string> {
  const tools = await listRegisteredTools();
  const lines = ['| tool | kind | what it does | arguments |', '| --- | --- | --- | --- |'];
  for (const tool of tools) {
    const props = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
    const required = new Set(tool.inputSchema.required ?? []);
    const args = Object.keys(props).map((key) => (required.has(key) ? `\`${key}\`` : `\`${key}?\``));
    lines.push(`| \`${tool.name}\` | ${kindOf(tool)} | ${escapeCell(tool.description ?? '')} | ${args.join(', ') || 'none'} |`);
  }
  return lines.join('\n') + '\n';
}

function kindOf(tool: Tool): string {
  const a = tool.annotations ?? {};
  if (a.readOnlyHint) return 'read';
  if (a.openWorldHint) return 'calls a model';
  if (a.destructiveHint) return 'destructive';
  return 'write';
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
