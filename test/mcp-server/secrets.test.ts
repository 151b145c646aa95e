import { afterEach, describe, expect, it } from 'vitest';
import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { redact, redactJson, rememberSecret } from '../../schemas/secrets.js';
import { CODEX_BIN, startRig } from '../wrapper/codex/live-helpers.js';
import { startHarness, type Harness } from './harness.js';

const KEY = 'sk-parley-test-secret-0123456789';
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('known secrets never leave parley', () => {
  it('a provider 401 that echoes the key: not in the tool results, the run files or the resources', async () => {
    const rig = await startRig(() => ({ status: 401, errorBody: `Incorrect API key provided: ${KEY}` }));
    // Codex authenticates with the key, as with a real provider.
    await appendFile(join(rig.codexHome, 'config.toml'), 'env_key = "OPENAI_API_KEY"\n');
    harness = await startHarness(await productionDepsOptions({ ...rig.env, PARLEY_CODEX_PATH: CODEX_BIN, OPENAI_API_KEY: KEY }));
    const { run } = await harness.ok('run_start', { protocol: 'debate', config: { question: 'Ship it?', agents: [{ model: 'codex' }, { model: 'codex' }], rounds: 1 } });
    const status = await harness.call('run_status', { runId: run.runId, waitSeconds: 45 });
    const result = await harness.call('run_result', { runId: run.runId });
    const audit = await harness.client.readResource({ uri: `parley://runs/${run.runId}/audit.jsonl` });
    const seen = [JSON.stringify(status), JSON.stringify(result), JSON.stringify(audit)];
    for (const file of await filesUnder(harness.home)) seen.push(`${file}: ${await readFile(file, 'utf8')}`);

    expect(rig.server.requests.length).toBeGreaterThan(0);
    for (const text of seen) expect(text).not.toContain(KEY);
    expect(seen.join('\n')).toContain('Incorrect API key provided: [redacted]');
  });

  it('scrubs the values of key, token and secret variables and configured keys, raw and JSON-escaped', () => {
    process.env.PARLEY_TEST_SERVICE_TOKEN = 'tok-abcdefgh-1234';
    process.env.PARLEY_TEST_SECRET_VALUE = 'with "quotes" inside';
    process.env.PARLEY_TEST_MAX_TOKENS = '4096';
    try {
      rememberSecret('configured-key-xyz-987');
      const text = 'a tok-abcdefgh-1234 b configured-key-xyz-987 c 4096';
      expect(redact(text)).toBe('a [redacted] b [redacted] c 4096');
      expect(redact(JSON.stringify({ said: 'with "quotes" inside' }))).toBe('{"said":"[redacted]"}');
      const value = { nested: [{ error: 'echo tok-abcdefgh-1234' }], keep: 1 };
      expect(redactJson(value)).toEqual({ nested: [{ error: 'echo [redacted]' }], keep: 1 });
      const clean = { nothing: 'to hide' };
      expect(redactJson(clean)).toBe(clean);
    } finally {
      delete process.env.PARLEY_TEST_SERVICE_TOKEN;
      delete process.env.PARLEY_TEST_SECRET_VALUE;
      delete process.env.PARLEY_TEST_MAX_TOKENS;
    }
  });
});
