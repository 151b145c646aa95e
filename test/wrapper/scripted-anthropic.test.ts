import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClaudeBackend } from '../../wrapper/claude-cli.js';
import { claudeBin, createClaudeHome } from '../doubles/claude-home.js';
import { isTitleRequest, startScriptedAnthropic, type ScriptedAnthropic } from '../doubles/scripted-anthropic.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function start(...args: Parameters<typeof startScriptedAnthropic>): Promise<ScriptedAnthropic> {
  const server = await startScriptedAnthropic(...args);
  cleanups.push(() => server.close());
  return server;
}

function parseSse(text: string): { event: string; data: { type: string; [key: string]: unknown } }[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? '{}');
      return { event, data };
    });
}

describe('scripted Anthropic server', () => {
  it('answers HEAD / and 404s unknown routes', async () => {
    const server = await start([]);
    expect((await fetch(`${server.baseUrl}/`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/v1/other`, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('streams the Messages event sequence for a tool_use reply', async () => {
    const server = await start([{ toolUse: { name: 'mcp__parley__status', input: { runId: 'r1' } }, text: 'checking' }]);
    const response = await fetch(`${server.baseUrl}/v1/messages?beta=true`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, system: [{ type: 'text', text: 'sys' }], messages: [{ role: 'user', content: 'go' }] }),
    });
    const events = parseSse(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[4]?.data).toMatchObject({ content_block: { type: 'tool_use', name: 'mcp__parley__status' } });
    expect(JSON.parse(String((events[5]?.data.delta as { partial_json: string }).partial_json))).toEqual({ runId: 'r1' });
    expect(events[7]?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    expect(server.requests[0]).toMatchObject({ system: 'sys', lastUserText: 'go', stream: true, index: 0 });
  });

  it('returns a plain JSON message when not streaming, and tells title requests apart', async () => {
    const server = await start((req) => (isTitleRequest(req) ? { text: 'A title' } : { text: 'a turn' }));
    const ask = async (system: string) =>
      (await fetch(`${server.baseUrl}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', system, messages: [{ role: 'user', content: 'x' }] }) })).json();
    expect(await ask('Generate a concise title for this conversation')).toMatchObject({ content: [{ type: 'text', text: 'A title' }], stop_reason: 'end_turn' });
    expect(await ask('You are an agent')).toMatchObject({ content: [{ type: 'text', text: 'a turn' }] });
  });

  it('drives a real claude tool call: tool_use, then the tool_result comes back in the next request', async () => {
    const server = await start((req) =>
      req.index === 0 ? { toolUse: { name: 'Read', input: { file_path: path.join(home.cwd, 'note.txt') } } } : { text: `saw: ${req.lastUserText}` },
    );
    const home = await createClaudeHome(server.baseUrl);
    cleanups.push(() => home.remove());
    await writeFile(path.join(home.cwd, 'note.txt'), 'the note says 42\n');
    const backend = createClaudeBackend('claude', { binPath: claudeBin, env: home.env, cwd: home.cwd, tools: ['Read'], timeoutMs: 60_000 });
    const reply = await backend.send({ history: [] }, 'read the note');
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('tool_result');
    expect(reply.text).toContain('the note says 42');
  });
});
