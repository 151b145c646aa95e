import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { closeOpenRigs, lastUserText, startConsultRig } from './rig.js';

// Issue 22, item 3: the tools that call a model check it first, with the CLI's own checks (the real
// `codex login status` here), and refuse at once naming the fix instead of waiting on a codex that can
// only fail. The built server over stdio (real SDK client), the real codex binary.
afterEach(closeOpenRigs);

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  return { text: lastUserText(body).includes('Iteration 1/8') ? '1. INFERENCE: Bound the pool at twice the core count.' : 'No further points.' };
}

/** A CODEX_HOME with no login and no provider of its own, and no key in the environment: a codex that is not logged in. */
async function notLoggedIn(): Promise<Record<string, string>> {
  return { CODEX_HOME: await mkdtemp(join(tmpdir(), 'parley-no-login-')), OPENAI_API_KEY: '', CODEX_API_KEY: '' };
}

const NOT_LOGGED_IN = /codex is not logged in \(CODEX_HOME=[^)]+\): run `codex login`, or `printenv OPENAI_API_KEY \| codex login --with-api-key`/;

describe('a tool that would wait on a codex that is not logged in refuses at once, naming the fix', () => {
  it('delib_start refuses before any deliberation exists (quick or stored), never saying it started; delib_consult refuses with the engine\'s next moves; once codex can be used the consult goes ahead', async () => {
    const env = await notLoggedIn();
    const r = await startConsultRig(consultee, env);
    for (const mode of ['quick', 'minimal']) {
      const refusal = await r.refused('delib_start', { question: 'How big should the DB pool be?', mode, consult: { waitSeconds: 20 } });
      expect(refusal).toMatch(/^\[model-not-ready\] a model cannot be used, so the deliberation did not start:\n {2}Codex \(the consultee\): /);
      expect(refusal).toMatch(NOT_LOGGED_IN);
      expect(refusal).not.toMatch(/\bstarted\b/);
    }
    expect((await r.ok('delib_status', {})).deliberations).toEqual([]);
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: false })).deliberationId;
    expect(await r.refused('delib_consult', { deliberationId: id, waitSeconds: 20 })).toMatch(/^\[model-not-ready\] a model cannot be used, so the consult did not start:\n {2}Codex \(the consultee\): codex is not logged in/);
    expect(r.server.requests).toHaveLength(0);
    expect((await r.audit(id)).map((record) => record.type)).not.toContain('consult-request');

    // The fix counts at once (a failed check is never remembered): codex now has a provider of its own.
    await writeFile(join(env.CODEX_HOME!, 'config.toml'), await readFile(join(r.codex.codexHome, 'config.toml'), 'utf8'));
    const consulted = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 60 });
    expect(consulted.consult).toMatchObject({ status: 'done', reply: { points: [{ id: 'P1.1' }] } });
    expect(r.server.requests).toHaveLength(1);
  });

  it('delib_arbitrate refuses before it starts the reviewer', async () => {
    const r = await startConsultRig(consultee, await notLoggedIn());
    // A standard deliberation driven to its end with replies the orchestrator records itself.
    const id: string = (await r.ok('delib_start', { question: 'How big should the DB pool be?', mode: 'standard', consult: false })).deliberationId;
    await r.ok('delib_consult', { deliberationId: id, reply: '1. INFERENCE: Bound the pool at twice the core count.' });
    const agreed = { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a bounded pool protects the database under load' };
    await r.ok('delib_judge', { deliberationId: id, points: [agreed], phase: { advance: true }, consult: false });
    await r.ok('delib_consult', { deliberationId: id, reply: 'No further points.' });
    const ended = await r.ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: { recommendation: 'Bound the pool', confidence: 'medium' } });
    expect(ended.at).toMatch(/terminated/);
    const refusal = await r.refused('delib_arbitrate', { deliberationId: id, waitSeconds: 20 });
    expect(refusal).toMatch(/^\[model-not-ready\] a model cannot be used, so the arbitration did not start:\n {2}the reviewer: codex is not logged in/);
    expect(refusal).toMatch(/Legal next moves: /);
    expect((await r.audit(id)).map((record) => record.type)).not.toContain('arbitration-request');
    expect(r.server.requests).toHaveLength(0);
  });

  it('run_start refuses a debate whose codex agents cannot be used, and starts none', async () => {
    const r = await startConsultRig(consultee, await notLoggedIn());
    const config = { question: 'Ship it?', agents: [{ model: 'codex:fake-model' }, { model: 'codex:fake-model', role: 'skeptic' }], rounds: 1 };
    const refusal = await r.refused('run_start', { protocol: 'debate', config });
    expect(refusal).toMatch(/^\[model-not-ready\] 2 models cannot be used, so run debate-[\w-]+ did not start:\n {2}agents\.0\.model: codex is not logged in .*\n {2}agents\.1\.model: codex is not logged in/);
    expect((await r.ok('run_list', {})).runs).toEqual([]);
    expect(r.server.requests).toHaveLength(0);
  });
});

