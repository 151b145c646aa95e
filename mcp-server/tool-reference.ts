import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createDeps } from './deps.js';
import { createServer } from './server.js';
import { productionDepsOptions } from './production.js';
import { TOOL_PROFILE_ENV, TOOL_PROFILES } from './tool-profiles.js';

/** The tools exactly as a client sees them over MCP, for a tool profile (`PARLEY_TOOLS`; default: all). */
export async function listRegisteredTools(profile = 'all'): Promise<Tool[]> {
  const options = await productionDepsOptions();
  const server = createServer(createDeps({ ...options, env: { ...options.env, [TOOL_PROFILE_ENV]: profile }, home: '/nonexistent-parley-reference' }));
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

/** What a tools/list costs a client on every turn: the JSON of its result, in bytes and in tokens (chars/4, the budget's estimate). */
export function toolListSize(tools: Tool[]): { bytes: number; tokens: number } {
  const json = JSON.stringify({ tools });
  return { bytes: Buffer.byteLength(json), tokens: Math.round(json.length / 4) };
}

export async function toolProfilesMarkdown(): Promise<string> {
  const lines = [`| \`${TOOL_PROFILE_ENV}\` | tools | tools/list tokens (chars/4) | tools/list bytes |`, '| --- | --- | --- | --- |'];
  for (const profile of Object.keys(TOOL_PROFILES)) {
    const tools = await listRegisteredTools(profile);
    const { bytes, tokens } = toolListSize(tools);
    lines.push(`| \`${profile}\`${profile === 'all' ? ' (default)' : ''} | ${tools.map((tool) => `\`${tool.name}\``).join(', ')} | ${tokens.toLocaleString('en-US')} | ${bytes.toLocaleString('en-US')} |`);
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
