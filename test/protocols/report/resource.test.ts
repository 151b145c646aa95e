import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../../mcp-server/server.js';
import { registerReportResources } from '../../../mcp-server/tools/report-resource.js';
import { debateProtocol } from '../../../protocols/debate/index.js';
import { createBackend } from '../../../wrapper/model-spec.js';
import type { ScriptedChat } from '../../doubles/scripted-chat.js';
import { argumentationRun, debateServer } from './fixtures.js';

// Resources must be registered before the server connects, so this wires the same pieces as
// test/mcp-server/harness.ts with one step more (a no-op once createServer registers them itself).
let home: string;
let client: Client;
let close: () => Promise<void>;
let chat: ScriptedChat;
let runId: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'parley-report-res-'));
  const { deps } = await argumentationRun(home, { protocols: { debate: debateProtocol }, backendFor: (spec) => createBackend(spec) });
  const { server: scripted, config } = await debateServer();
  chat = scripted;
  runId = (await deps.runs.start('debate', config)).runId;
  expect((await deps.runs.wait(runId, 30_000)).status).toBe('succeeded');
  const server = createServer(deps);
  registerReportResources(server, deps);
  registerReportResources(server, deps);
  client = new Client({ name: 'parley-test', version: '0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  close = async () => {
    await deps.jobs.shutdown();
    await client.close();
    await server.close();
    await chat.close();
  };
}, 30_000);

afterAll(async () => {
  await close();
  await rm(home, { recursive: true, force: true });
});

describe('report resources over MCP', () => {
  it('lists the three report templates and reads a deliberation report', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining(['parley://deliberations/{id}/report.md', 'parley://runs/{runId}/report.html', 'parley://runs/{runId}/report.md']),
    );
    const result = await client.readResource({ uri: 'parley://deliberations/report-delib/report.md' });
    const [content] = result.contents;
    expect(content?.mimeType).toBe('text/markdown');
    const text = (content as { text: string }).text;
    expect(text).toMatch(/^# Deliberation report\n[\s\S]*\n## RECOMMENDATION\n\nUse Memcached/);
    expect(text).toContain('| C1 on P1.1 | SKEPTICAL |');
  });

  it("reads a synthesized deliberation's decision record (MADR)", async () => {
    const result = await client.readResource({ uri: 'parley://deliberations/report-delib/decision.md' });
    expect(result.contents[0]?.mimeType).toBe('text/markdown');
    expect((result.contents[0] as { text: string }).text).toMatch(/^---\nstatus: accepted\n[\s\S]*## Decision Outcome\n\nChosen option: "Use Memcached for the cache"/);
  });

  it('reads a finished run as Markdown and as HTML, and lists it', async () => {
    const md = await client.readResource({ uri: `parley://runs/${runId}/report.md` });
    expect((md.contents[0] as { text: string }).text).toMatch(/^# Debate[\s\S]*stopped by unanimity/);
    const html = await client.readResource({ uri: `parley://runs/${runId}/report.html` });
    expect(html.contents[0]?.mimeType).toBe('text/html');
    expect((html.contents[0] as { text: string }).text).toMatch(/^<!doctype html>[\s\S]*<g id="graph0" class="graph"/);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`parley://runs/${runId}/report.html`);
  });

  it('refuses an unknown run and an unsafe id', async () => {
    await expect(client.readResource({ uri: 'parley://runs/no-such-run/report.md' })).rejects.toThrow();
    await expect(client.readResource({ uri: 'parley://deliberations/..%2F..%2Fetc/report.md' })).rejects.toThrow();
  });
});
