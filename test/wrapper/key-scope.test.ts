import { afterEach, describe, expect, it } from 'vitest';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { isConfiguredEndpoint } from '../../wrapper/key-scope.js';
import { BackendError } from '../../wrapper/backend.js';
import { agentsOn, debaterScript, FOUR_AGENT_DEBATE } from '../protocols/debate/scripts.js';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { startHarness, type Harness } from '../mcp-server/harness.js';

const KEY = 'parley-key-0123456789abcdef';
let harness: Harness | undefined;
const servers: ScriptedChat[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function twoServers() {
  const configured = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
  const other = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
  servers.push(configured, other);
  const env = { ...process.env, PARLEY_API_KEY: KEY, PARLEY_API_BASE_URL: configured.baseUrl };
  return { configured, other, env };
}

describe('PARLEY_API_KEY goes only to the endpoints it was configured for', () => {
  it('run_start: a debater at a URL from the tool argument gets no key; one at the configured endpoint does', async () => {
    const { configured, other, env } = await twoServers();
    harness = await startHarness(await productionDepsOptions(env));
    const agents = [...agentsOn(configured.baseUrl, ['m1']), ...agentsOn(other.baseUrl, ['m2'])];
    const { run } = await harness.ok('run_start', { protocol: 'debate', config: { question: 'Ship it?', agents, rounds: 2 } });
    const { run: done } = await harness.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status, done.error).toBe('succeeded');
    expect(configured.requests.length).toBeGreaterThan(0);
    expect(other.requests.length).toBeGreaterThan(0);
    expect(configured.requests.every((request) => request.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(other.requests.map((request) => request.authorization ?? '').join(' ')).not.toContain(KEY);
  });

  it("delib_arbitrate's backend (the server's backendFor): an unconfigured URL never sees the key, and a 401 says why", async () => {
    const { configured, other, env } = await twoServers();
    const { backendFor } = await productionDepsOptions(env);
    const ask = (baseUrl: string) => backendFor!(`openai-compatible:${baseUrl}#m1`).send({ history: [] }, 'Round 1: answer.');
    await ask(configured.baseUrl);
    await ask(other.baseUrl);
    expect(configured.requests[0]?.authorization).toBe(`Bearer ${KEY}`);
    expect(other.requests[0]?.authorization).not.toContain(KEY);

    const refusing = await startScriptedChat(() => ({ status: 401, body: { error: { message: 'missing key' } } }));
    servers.push(refusing);
    const error = await ask(refusing.baseUrl).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toMatch(/No key was sent: PARLEY_API_KEY is sent only to the endpoints listed in PARLEY_API_BASE_URL/);
    expect(refusing.requests[0]?.authorization).not.toContain(KEY);
  });

  it('matches a configured endpoint by scheme, host, port and path prefix only', () => {
    const configured = 'http://127.0.0.1:1234/v1, https://llm.example.org/api/v1/';
    expect(isConfiguredEndpoint('http://127.0.0.1:1234/v1', configured)).toBe(true);
    expect(isConfiguredEndpoint('http://127.0.0.1:1234/v1/', configured)).toBe(true);
    expect(isConfiguredEndpoint('http://127.0.0.1:1234/v1/deployments/x', configured)).toBe(true);
    expect(isConfiguredEndpoint('https://llm.example.org/api/v1', configured)).toBe(true);
    for (const url of [
      'http://127.0.0.1:1234/v10',
      'http://127.0.0.1:12345/v1',
      'https://127.0.0.1:1234/v1',
      'http://127.0.0.1:1234',
      'http://llm.example.org/api/v1',
      'https://llm.example.org.evil.test/api/v1',
      'https://evil.test/?u=https://llm.example.org/api/v1',
      'not a url',
    ]) {
      expect(isConfiguredEndpoint(url, configured), url).toBe(false);
    }
    expect(isConfiguredEndpoint('http://127.0.0.1:1234/v1', undefined)).toBe(false);
  });
});
