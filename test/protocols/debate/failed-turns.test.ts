/**
 * Issue 28, item 2: a debate in which agents failed does not exit 0. A model the endpoint's own list
 * leaves out is refused before any call; a run with failed turns ends with its own exit code, names
 * the agents and rounds, and its report marks them. Real CLI commands (in process), real probes and
 * backends, against scripted OpenAI-compatible servers on 127.0.0.1.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { registerDebateCommand } from '../../../cli/debate.js';
import { registerReportCommand } from '../../../cli/report.js';
import { EXIT_RUN_HAD_FAILURES } from '../../../cli/shared.js';
import { endpointFinding } from '../../../cli/doctor-checks.js';
import { probeEndpoint } from '../../../wrapper/endpoint-probe.js';
import { startScriptedChat, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { runCli } from '../../cli/cli-capture.js';

const work = await mkdtemp(join(tmpdir(), 'parley-failed-turns-'));
let chat: ScriptedChat | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** m1 answers; any other model is one the server does not have (HTTP 404, as vLLM and Ollama answer). */
const onlyM1 = (models?: string[]) =>
  startScriptedChat(
    (req) => (req.model === 'm1' ? { content: JSON.stringify({ answer: 'no', reasoning: 'risky' }) } : { status: 404, body: { error: { message: `The model \`${req.model}\` does not exist.` } } }),
    models ? { models } : {},
  );

const debate = (agents: string[], out: string) => runCli(registerDebateCommand, ['debate', 'Ship on Friday?', ...agents.flatMap((spec) => ['--agent', spec]), '--options', 'yes,no', '--rounds', '2', '--out', out]);

describe('a debate model the endpoint does not serve', () => {
  it('is refused before any call when the endpoint lists its models, naming the agent, the list and the nearest name', async () => {
    chat = await onlyM1(['m1', 'm2']);
    const agents = [`openai-compatible:${chat.baseUrl}#m1`, `openai-compatible:${chat.baseUrl}#m3`];
    const ran = await debate(agents, join(work, 'refused.json'));
    expect(ran.exitCode).toBe(1);
    expect(ran.stderr).toContain(`a model cannot be used, so the run did not start:\n  agent 2 (${agents[1]}): ${chat.baseUrl} does not serve the model "m3" (it lists m1, m2): correct the spec ${agents[1]} (did you mean "m1"?), or load the model there`);
    expect(chat.requests).toHaveLength(0);
  });

  it('parley doctor --model says the same of the spec', async () => {
    chat = await onlyM1(['m1', 'm2']);
    const url = chat.baseUrl;
    const finding = endpointFinding({ url, source: `openai-compatible:${url}#m3`, provider: 'openai-compatible', model: 'm3' }, await probeEndpoint(url));
    expect(finding).toMatchObject({ check: 'endpoint', status: 'fail', message: `${url} does not serve the model "m3" (it lists m1, m2)` });
    expect(endpointFinding({ url, source: `openai-compatible:${url}#m2`, provider: 'openai-compatible', model: 'm2' }, await probeEndpoint(url))).toMatchObject({ status: 'ok' });
  });
});

describe('a debate whose agent failed on every call', () => {
  it(`ends with exit ${EXIT_RUN_HAD_FAILURES}, names the agent and its rounds, and its reports mark them`, async () => {
    // An endpoint that lists no models: only the calls can tell.
    chat = await onlyM1();
    const agents = [`openai-compatible:${chat.baseUrl}#m1`, `openai-compatible:${chat.baseUrl}#missing`];
    const out = join(work, 'failed.json');
    const ran = await debate(agents, out);
    expect(ran.exitCode, ran.stderr).toBe(EXIT_RUN_HAD_FAILURES);
    expect(ran.stdout).toMatch(/wrote .*failed\.json: 2 round\(s\)/);
    const origin = new URL(chat.baseUrl).origin;
    expect(ran.stderr).toContain(
      `parley debate: the debate finished, but some of its calls gave nothing usable, so its measures leave them out:\n  Agent 2 (${agents[1]}): call failed in rounds 1, 2: missing at ${origin} answered HTTP 404 Not Found: The model \`missing\` does not exist. Check the model name and base URL.`,
    );

    const markdown = await runCli(registerReportCommand, ['report', out]);
    expect(markdown.stdout).toMatch(/\*\*Some calls gave nothing usable, so the measures leave these turns out:\*\*\n\n- Agent 2 \(.*#missing\): call failed in rounds 1, 2: /);
    const html = join(work, 'failed.html');
    await runCli(registerReportCommand, ['report', out, '--html', html]);
    expect(await readFile(html, 'utf8')).toMatch(/<p class="warn"><b>Some calls gave nothing usable, so the measures leave these turns out:<\/b><br>Agent 2 \([^)]*#missing\): call failed in rounds 1, 2: /);
  });

  it('a debate in which every call answered exits 0 and marks nothing', async () => {
    chat = await onlyM1();
    const out = join(work, 'fine.json');
    const ran = await debate([`openai-compatible:${chat.baseUrl}#m1`, `openai-compatible:${chat.baseUrl}#m1`], out);
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect((await runCli(registerReportCommand, ['report', out])).stdout).not.toMatch(/gave nothing usable/);
  });
});
