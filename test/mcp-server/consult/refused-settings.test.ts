import { afterEach, describe, expect, it } from 'vitest';
import { closeOpenRigs, startConsultRig, type ConsultRig } from './rig.js';

afterEach(closeOpenRigs);

const REPLY = '1. INFERENCE: Use a bounded connection pool.';

/** A deliberation waiting for its first consult. */
async function waiting(r: ConsultRig): Promise<string> {
  return (await r.ok('delib_start', { question: 'How big should the DB pool be?', consult: false })).deliberationId;
}

/** The setting is refused before any model call, nothing of it is kept, and a plain consult then works. */
async function refusedThenPlain(r: ConsultRig, setting: Record<string, string>, why: RegExp): Promise<void> {
  const id = await waiting(r);
  const before = await r.stateFile(id);
  const requests = r.server.requests.length;
  const refusal = await r.refused('delib_consult', { deliberationId: id, waitSeconds: 55, ...setting });
  expect(refusal).toMatch(/^\[bad-consult-setting\] /);
  expect(refusal).toMatch(why);
  expect(refusal).toContain('Nothing was sent: the state is unchanged and the next delib_consult uses the earlier settings');
  expect(r.server.requests.length).toBe(requests);
  expect(await r.stateFile(id)).toEqual(before);

  const asked = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 55 });
  expect(asked.consult).toMatchObject({ status: 'done', reply: { points: [{ id: 'P1.1', text: expect.stringMatching(/^INFERENCE: /) }] } });
  expect(r.server.requests.length).toBe(requests + 1);
}

describe('a refused consult setting is not kept (stdio, real codex)', () => {
  it('reasoningEffort, model and cwd: each refused at once, and the next plain delib_consult is sent as before', { timeout: 240_000 }, async () => {
    const r = await startConsultRig(() => ({ text: REPLY }));
    await refusedThenPlain(r, { reasoningEffort: 'high -c sandbox_mode=danger-full-access' }, /refusing to pass reasoningEffort "high -c sandbox_mode=danger-full-access" to codex: it must be a reasoning effort/);
    expect(r.server.requests.at(-1)?.body.reasoning?.effort).not.toBe('high');

    await refusedThenPlain(r, { model: 'gpt-5 --dangerously-bypass-approvals-and-sandbox' }, /refusing to pass model .* it must be a model name/);
    expect(r.server.requests.at(-1)?.body.model).toBe('fake-model');

    await refusedThenPlain(r, { cwd: '/no/such/folder' }, /codex cannot work in "\/no\/such\/folder": no such folder/);
    // The state folder is out of the consultee's reach: it cannot be its working folder either.
    await refusedThenPlain(r, { cwd: r.stateDir }, /codex cannot work in .*: it lies in .*, which Codex's commands may not read/);
  });
});
