import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DialogicRun } from '../../../schemas/dialogic.js';
import { DialogicCallError, runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { parseAuditLines, type AuditRecord } from '../../../state/audit-log.js';
import { startWorld, verdictFor, type World, type WorldScript } from './world.js';
import { filesDigest } from '../folder-digest.js';

const GENERATIONS: WorldScript['generations'] = {
  'model-a': [
    { terms: ['K alpha', 'RA alpha', 'RC alpha', 'D alpha'] },
    { terms: ['K delta', 'D delta'] },
    { exhausted: true, statement: 'Nothing further is within reach.' },
  ],
  'model-b': [
    { terms: ['K beta', 'RX beta', 'RD beta', 'K gamma'] },
    { terms: ['K epsilon', 'RA epsilon'] },
    { exhausted: true, statement: 'The rest is below reflection.' },
  ],
};
/** Requests of an undisturbed run of GENERATIONS (see protocol.test.ts). */
const FULL_RUN_REQUESTS = 28;

const worlds: World[] = [];
afterEach(async () => {
  await Promise.all(worlds.splice(0).map((world) => world.chat.close()));
});

async function world(override: WorldScript['override']): Promise<World> {
  const started = await startWorld({ generations: GENERATIONS, override });
  worlds.push(started);
  return started;
}

async function tempOut(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'parley-dialogic-')), 'run.json');
}

async function auditOf(outPath: string): Promise<AuditRecord[]> {
  return parseAuditLines(await readFile(join(outPath, '..', 'run.run', 'audit.jsonl'), 'utf8'));
}

describe('dialogic protocol under faults', () => {
  it('repairs a malformed verdict with one retry and logs both attempts', async () => {
    const w = await world((seen) => {
      if (seen.model === 'model-b' && seen.kind === 'respond' && seen.termName === 'K alpha') return { content: 'I would say KEEP, it fits.' };
      if (seen.kind === 'repair') return { content: JSON.stringify(verdictFor('K alpha', 'respond')) };
      return undefined;
    });
    const outPath = await tempOut();
    const output = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath });
    expect(w.chat.requests).toHaveLength(FULL_RUN_REQUESTS + 1);
    expect(output.run.submitted_terms.map((t) => t.term)).toContain('K alpha');
    const call = (await auditOf(outPath)).find((r) => r.key === 'c1/negotiate/a1/x1/respond' && r.type === 'model_call');
    const attempts = call?.attempts as { raw: string; error?: string }[];
    expect(call?.status).toBe('ok');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.raw).toBe('I would say KEEP, it fits.');
    expect(attempts[0]?.error).toMatch(/JSON/);
    expect(attempts[1]?.error).toBeUndefined();
  });

  it('stops on a reply that stays malformed, never counting it, and resumes without repeating calls', async () => {
    let broken = true;
    const w = await world((seen) => {
      if (broken && seen.model === 'model-b' && seen.kind === 'respond' && seen.termName === 'RA alpha') {
        return { content: JSON.stringify({ verdict: 'REFINE', reason: 'needs work' }) };
      }
      return undefined;
    });
    const outPath = await tempOut();
    const config = { modelA: w.specA, modelB: w.specB, retryBaseMs: 0 };
    const failure = await runDialogicToFile(config, { outPath }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DialogicCallError);
    expect((failure as DialogicCallError).key).toBe('c1/negotiate/a2/x1/respond');
    expect((failure as Error).message).toMatch(/format failure/);
    const audit = await auditOf(outPath);
    const failed = audit.find((r) => r.type === 'model_call' && r.status === 'format-failure');
    expect(failed?.key).toBe('c1/negotiate/a2/x1/respond');
    const attempts = failed?.attempts as { raw: string; error?: string }[];
    expect(attempts.map((a) => a.raw)).toEqual([JSON.stringify({ verdict: 'REFINE', reason: 'needs work' }), 'still not JSON']);
    expect(attempts[0]?.error).toMatch(/revision/);
    expect(audit.some((r) => r.type === 'verdict' && r.term_id === 'c1-a2')).toBe(false);
    const completed = audit.filter((r) => r.type === 'model_call' && r.status === 'ok').length;
    expect(completed).toBe(3);
    const before = w.chat.requests.length;

    broken = false;
    const output = await runDialogicToFile(config, { outPath });
    const resumed = w.seen.slice(before);
    expect(resumed).toHaveLength(FULL_RUN_REQUESTS - completed);
    expect(resumed.some((s) => s.kind === 'generate')).toBe(false);
    expect(output.calls.replayed).toBe(completed);
    expect(DialogicRun.parse(JSON.parse(await readFile(outPath, 'utf8'))).submitted_terms).toHaveLength(8);
  });

  it('gets through a 429 and answers from the retry', async () => {
    const w = await world((seen) => (seen.index === 0 ? { status: 429, headers: { 'retry-after-ms': '10' }, body: { error: { message: 'slow down' } } } : undefined));
    const output = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0 }, { outPath: await tempOut() });
    expect(w.chat.requests).toHaveLength(FULL_RUN_REQUESTS + 1);
    expect(output.stopReason).toBe('bilateral_exhaustion');
    expect(output.run.submitted_terms).toHaveLength(8);
  });

  it('resumes a run aborted mid-call from its audit log without repeating completed calls', async () => {
    const controller = new AbortController();
    const w = await world((seen) => {
      if (seen.index === 12 && !controller.signal.aborted) {
        setTimeout(() => controller.abort(new Error('simulated crash')), 50);
        return { content: '{}', delayMs: 10_000 };
      }
      return undefined;
    });
    const outPath = await tempOut();
    const config = { modelA: w.specA, modelB: w.specB, retryBaseMs: 0 };
    await expect(runDialogicToFile(config, { outPath, signal: controller.signal })).rejects.toBeDefined();
    const afterCrash = await auditOf(outPath);
    const completedKeys = afterCrash.filter((r) => r.type === 'model_call' && r.status === 'ok').map((r) => r.key);
    expect(completedKeys).toHaveLength(12);
    const before = w.chat.requests.length;
    expect(before).toBe(13);

    const output = await runDialogicToFile(config, { outPath });
    expect(w.chat.requests.length - before).toBe(FULL_RUN_REQUESTS - completedKeys.length);
    expect(output.calls).toEqual({ sent: FULL_RUN_REQUESTS - 12, replayed: 12 });
    const audit = await auditOf(outPath);
    const okKeys = audit.filter((r) => r.type === 'model_call' && r.status === 'ok').map((r) => r.key);
    expect(okKeys).toHaveLength(FULL_RUN_REQUESTS);
    expect(new Set(okKeys).size).toBe(FULL_RUN_REQUESTS);
    expect(audit.filter((r) => r.type === 'run_resumed')).toHaveLength(1);
    expect(audit.filter((r) => r.type === 'term_resolved')).toHaveLength(12);
    expect(output.run.submitted_terms.map((t) => t.term)).toContain('RC alpha~');
  });

  it('refuses to resume a run with a different configuration, naming what differs, before any call and changing nothing', async () => {
    const w = await world(undefined);
    const outPath = await tempOut();
    await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0, maxCycles: 1 }, { outPath });
    const requests = w.chat.requests.length;
    const before = await filesDigest(dirname(outPath));
    await expect(
      runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0, maxCycles: 2, personas: 'swapped', anonymise: false }, { outPath }),
    ).rejects.toThrow(/run\.run holds a dialogic run started with another configuration \(anonymise: true -> false; maxCycles: 1 -> 2; personas: "standard" -> "swapped"\); nothing was called or changed/);
    expect(w.chat.requests.length).toBe(requests);
    expect(await filesDigest(dirname(outPath))).toEqual(before);
    // How long to wait is no part of what the run is: a longer timeout resumes it.
    const resumed = await runDialogicToFile({ modelA: w.specA, modelB: w.specB, retryBaseMs: 0, maxCycles: 1, callTimeoutMs: 900_000 }, { outPath });
    expect(resumed.calls.sent).toBe(0);
    expect(w.chat.requests.length).toBe(requests);
  });
});
