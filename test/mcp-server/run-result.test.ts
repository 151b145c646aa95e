import { afterEach, describe, expect, it } from 'vitest';
import { copyFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { productionDepsOptions } from '../../mcp-server/production.js';
import { PHENOMENAI_RUN } from '../doubles/interop.js';
import { agentsOn } from '../protocols/debate/scripts.js';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';
import { startHarness, type Harness } from './harness.js';

const root = resolve(import.meta.dirname, '../..');
let harness: Harness | undefined;
const servers: ScriptedChat[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const start = async (env: NodeJS.ProcessEnv = {}) => {
  harness = await startHarness(await productionDepsOptions({ ...process.env, ...env }));
  // As a validating client does: after tools/list, every structuredContent is checked against its outputSchema.
  await harness.client.listTools();
  return harness;
};

describe('run_result with a path', () => {
  it('returns what its output schema says (measures, no output) for a foreign run in a configured folder', async () => {
    const h = await start({ PARLEY_READ_DIRS: dirname(PHENOMENAI_RUN) });
    const result = await h.ok('run_result', { path: PHENOMENAI_RUN, protocol: 'dialogic' });
    expect(result.measures.proposed).toBeGreaterThan(0);
    expect(result.table).toMatch(/survival/i);
    expect(result).not.toHaveProperty('output');
  });

  it('refuses a file that is not a run of that protocol, with the reason', async () => {
    const h = await start();
    await copyFile(join(root, 'package.json'), join(h.home, 'package.json'));
    expect(await h.refused('run_result', { path: join(h.home, 'package.json'), protocol: 'dialogic' })).toMatch(/is not a dialogic run: .*neither submitted_terms nor dropped_terms/);
    expect(await h.refused('run_result', { path: 'package.json', protocol: 'debate' })).toMatch(/is not a debate run: .*"kind" is not "parley.debate"/);
  });

  it('reads only inside the state folder and PARLEY_READ_DIRS, and never quotes a file it cannot parse', async () => {
    const h = await start();
    for (const path of ['/etc/passwd', '../../../../etc/passwd', PHENOMENAI_RUN]) {
      const refusal = await h.refused('run_result', { path, protocol: 'debate' });
      expect(refusal).toMatch(/outside the folders parley reads from/);
      expect(refusal).not.toMatch(/root:/);
    }
    // A file outside that does not exist gets the same refusal as one that does: no probing for files.
    expect(await h.refused('run_result', { path: '/etc/no-such-file.json', protocol: 'debate' })).toMatch(/outside the folders parley reads from/);
    expect(await h.refused('run_result', { path: join(h.home, 'missing.json'), protocol: 'debate' })).toMatch(/missing\.json does not exist: check the name, or give the file's full path$/);
    await symlink('/etc/passwd', join(h.home, 'passwd.json'));
    expect(await h.refused('run_result', { path: join(h.home, 'passwd.json'), protocol: 'dialogic' })).toMatch(/outside the folders/);
    await writeFile(join(h.home, 'notes.json'), 'PRIVATE-CONTENT: not json at all');
    const refusal = await h.refused('run_result', { path: join(h.home, 'notes.json'), protocol: 'dialogic' });
    expect(refusal).toMatch(/notes\.json is not valid JSON at \/.*notes\.json:1:1: expected a value/);
    expect(refusal).not.toMatch(/PRIVATE/);
  });
});

describe('a debate run in which every call failed', () => {
  it('is reported as failed with the reason, not as succeeded', async () => {
    const chat = await startScriptedChat(() => ({ status: 401, body: { error: { message: 'no such key' } } }));
    servers.push(chat);
    const h = await start();
    const { run } = await h.ok('run_start', { protocol: 'debate', config: { question: 'Ship it?', agents: agentsOn(chat.baseUrl, ['m1', 'm2']), rounds: 2 } });
    const { run: done } = await h.ok('run_status', { runId: run.runId, waitSeconds: 30 });
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/no debater gave a valid reply \(2 failed calls, 0 unreadable replies\); first error: .*HTTP 401/);
    expect(await h.refused('run_result', { runId: run.runId })).toMatch(/is failed/);
  });
});
