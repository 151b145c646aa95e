import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { localProviderConfig } from '../../../wrapper/codex/local-provider.js';
import { closedPort } from '../../doubles/http-helpers.js';
import { closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

describe('a Codex that cannot reach its model provider (stdio, real codex)', () => {
  it('delib_start says so in its first wait, with the cause and the fix, and its progress gives Codex\'s own words', { timeout: 180_000 }, async () => {
    // Codex is set up (its provider configured, no login needed) but nothing listens where it sends requests.
    const r = await startConsultRig([], { PARLEY_CONSULT_TIMEOUT_MS: '600000' });
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    await writeFile(join(r.codex.codexHome, 'config.toml'), localProviderConfig({ provider: 'fake', name: 'fake', model: 'fake-model', baseUrl: url }));
    const progress: Progress[] = [];
    const result = await r.call('delib_start', { question: 'How should clients retry?' }, { onprogress: (p) => progress.push(p), resetTimeoutOnProgress: true });
    const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
    expect(result.isError, text).toBe(true);
    expect(text).toMatch(/^\[consult-failed\] deliberation d-\S+ is kept with no reply yet: the consult failed: /);
    expect(text).toContain(`the consult failed: codex cannot reach its model provider fake (${url}: connection refused); Codex said: Reconnecting... waiting for network`);
    expect(text).toContain(`start the server at ${url}, or correct base_url of [model_providers.fake] in ${r.codex.codexHome}/config.toml; \`parley doctor\` checks it`);
    expect(text).toContain('The state is unchanged; fix the cause and call delib_consult again');
    expect(progress.map((p) => p.message)).toContain('codex: error: Reconnecting... waiting for network (Connection failed: error sending request)');
    expect(r.server.requests).toHaveLength(0);
  });
});
