import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertModelsReady, rememberingPasses, whyNotReady } from '../../wrapper/readiness.js';
import { startScriptedChat } from '../doubles/scripted-chat.js';
import { closedPort } from '../doubles/http-helpers.js';

const root = await mkdtemp(join(tmpdir(), 'parley-readiness-'));
afterAll(async () => rm(root, { recursive: true, force: true }));
const bare = async (name: string): Promise<NodeJS.ProcessEnv> => {
  const home = join(root, name);
  await mkdir(join(home, 'codex'), { recursive: true });
  return { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, 'codex'), CLAUDE_CONFIG_DIR: join(home, 'claude') };
};

describe('whyNotReady: what stops a model before a run starts', () => {
  it('names a missing key and an endpoint where nothing listens, and lets a keyless local endpoint that answers through', async () => {
    const env = await bare('keys');
    expect(await whyNotReady('openai:gpt-4.1', env)).toMatch(/needs an API key: set OPENAI_API_KEY/);
    const chat = await startScriptedChat([]);
    try {
      expect(await whyNotReady(`openai-compatible:${chat.baseUrl}#m`, env)).toBeUndefined();
      expect(chat.requests).toEqual([]);
    } finally {
      await chat.close();
    }
    const down = `http://127.0.0.1:${await closedPort()}/v1`;
    expect(await whyNotReady(`openai-compatible:${down}#m`, env)).toBe(`${down} is unreachable (connection refused): start the server at ${down}, or correct the spec openai-compatible:${down}#m`);
    expect(await whyNotReady(`ollama:llama3.1:8b@${down}`, env)).toMatch(/unreachable \(connection refused\): start Ollama \(`ollama serve`\), or correct the spec/);
    expect(await whyNotReady('nonsense:', env)).toMatch(/Model spec "nonsense:"/);
  });

  it('says a codex without a login is not logged in, unless a key or a provider of its own is configured', async () => {
    const env = await bare('codex');
    expect(await whyNotReady('codex:gpt-5.2', env)).toMatch(/^codex is not logged in \(CODEX_HOME=.*\): run `codex login`/);
    expect(await whyNotReady('codex:gpt-5.2', { ...env, CODEX_API_KEY: 'dummy-key-0123' })).toBeUndefined();
    await writeFile(join(env.CODEX_HOME!, 'config.toml'), 'model_provider = "fake"\n[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:9/v1"\n');
    expect(await whyNotReady('codex:gpt-5.2', env)).toBeUndefined();
  });

  it('says a claude without a login is not logged in, and accepts one with ANTHROPIC_API_KEY', async () => {
    const env = await bare('claude');
    expect(await whyNotReady('claude:sonnet', env)).toMatch(/^claude is not logged in: run `claude auth login`/);
    expect(await whyNotReady('claude:sonnet', { ...env, ANTHROPIC_API_KEY: 'dummy-key-0123' })).toBeUndefined();
  });

  it('names every role that cannot be used in one error, checking each spec once', async () => {
    const checked: string[] = [];
    const check = async (spec: string) => (checked.push(spec), spec.startsWith('bad') ? `${spec} is broken: fix it` : undefined);
    const roles = [{ label: 'agent 1', spec: 'bad:a' }, { label: 'agent 2', spec: 'good:b' }, { label: 'judge', spec: 'bad:a' }];
    await expect(assertModelsReady(roles, { check, what: 'the sweep' })).rejects.toMatchObject({
      code: 'model-not-ready',
      message: '2 models cannot be used, so the sweep did not start:\n  agent 1: bad:a is broken: fix it\n  judge: bad:a is broken: fix it',
    });
    expect(checked).toEqual(['bad:a', 'good:b']);
  });

  it('remembers a pass for a while, never a failure, and shares a check under way', async () => {
    let now = 0;
    let answer: string | undefined = 'not logged in';
    let release = () => {};
    const calls: string[] = [];
    const check = rememberingPasses(
      (spec) => {
        calls.push(spec);
        return new Promise((resolve) => (release = () => resolve(answer)));
      },
      { ttlMs: 1000, now: () => now },
    );
    const failing = check('codex');
    release();
    expect(await failing).toBe('not logged in');
    answer = undefined;
    const [first, second] = [check('codex'), check('codex')];
    release();
    expect(await Promise.all([first, second])).toEqual([undefined, undefined]);
    expect(calls).toEqual(['codex', 'codex']);
    now = 999;
    expect(await check('codex')).toBeUndefined();
    expect(calls).toHaveLength(2);
    now = 1000;
    const again = check('codex');
    release();
    expect(await again).toBeUndefined();
    expect(calls).toHaveLength(3);
  });
});
