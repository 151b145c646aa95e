import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { whyNotReady } from '../../wrapper/readiness.js';

const root = await mkdtemp(join(tmpdir(), 'parley-readiness-'));
afterAll(async () => rm(root, { recursive: true, force: true }));
const bare = async (name: string): Promise<NodeJS.ProcessEnv> => {
  const home = join(root, name);
  await mkdir(join(home, 'codex'), { recursive: true });
  return { PATH: process.env.PATH, HOME: home, CODEX_HOME: join(home, 'codex'), CLAUDE_CONFIG_DIR: join(home, 'claude') };
};

describe('whyNotReady: what stops a model before a run starts', () => {
  it('names a missing key, and lets a keyless local endpoint through', async () => {
    const env = await bare('keys');
    expect(await whyNotReady('openai:gpt-4.1', env)).toMatch(/needs an API key: set OPENAI_API_KEY/);
    expect(await whyNotReady('openai-compatible:http://127.0.0.1:9/v1#m', env)).toBeUndefined();
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
});
