import { afterEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { startConsultRig, type ConsultRig } from './rig.js';

let rig: ConsultRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('quick mode through the MCP tools (stdio, real codex)', () => {
  it('delib_consult asks Codex and records the reply; nothing is written to the state folder', async () => {
    rig = await startConsultRig(() => ({ text: '1. INFERENCE: Use Redis; it gives persistence and data structures.\n2. GUESS: Memcached is faster for plain strings.' }));
    const r = rig;
    const started = await r.ok('delib_start', { question: 'Redis or Memcached?', mode: 'quick' });
    const id: string = started.deliberationId;
    // cwd outside the state folder: 'empty' would make an empty work folder inside it.
    const consulted = await r.ok('delib_consult', { deliberationId: id, waitSeconds: 30, cwd: dirname(r.codex.codexHome) });
    expect(consulted.consult).toMatchObject({ status: 'done', kind: 'first', recovered: false });
    expect(consulted.effects).toContain('2 new point(s) to triage');
    expect(consulted.status).toMatchObject({ mode: 'quick', n: 1, cap: 2, replyRecorded: true });
    expect(r.server.requests).toHaveLength(1);
    expect(r.prompts()[0]).toContain('Iteration 1/2 (quick: short answer).');

    const status = await r.ok('delib_status', { deliberationId: id });
    expect(status.status.unevaluatedPoints).toEqual([{ id: 'P1.1', status: 'pending-triage' }, { id: 'P1.2', status: 'pending-triage' }]);
    expect(await readdir(r.stateDir, { recursive: true })).toEqual([]);
  });
});
