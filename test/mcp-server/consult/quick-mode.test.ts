import { afterEach, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import type { ResponsesScriptStep } from '../../doubles/scripted-responses.js';
import { lastUserText, closeOpenRigs, startConsultRig } from './rig.js';

afterEach(closeOpenRigs);

const FIRST = [
  'Short answer: Redis.',
  '',
  '1. INFERENCE: Use Redis; it keeps sessions across a restart and offers data structures the app can grow into.',
  '2. GUESS: Memcached is faster for plain string values.',
].join('\n');
const DEFENSE = 'Re P1.2: INFERENCE: multithreaded Memcached serves more small GETs per core than single-threaded Redis; the gap shows above about 100k ops/s.';
/** The orchestrator's judgment of FIRST: P1.1 agreed, an objection to P1.2. */
const FIRST_JUDGMENT = [
  { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'surviving a restart matters more than raw speed for sessions' },
  { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'No measurement shows a speed gap that matters at a session cache load.' },
];

function consultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.includes('Iteration 1/2')) return { text: FIRST };
  if (prompt.includes('Iteration 2/2')) return { text: DEFENSE };
  return { status: 500, errorBody: `unexpected prompt: ${prompt.slice(0, 200)}` };
}

describe('quick mode through the MCP tools (stdio, real codex)', () => {
  it('a binary question from start to answer: 3 tool calls, 2 Codex turns, no challenge ids, nothing on disk', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(consultee);
    let calls = 0;
    const call = (name: string, args: Record<string, unknown>) => {
      calls += 1;
      return r.ok(name, args);
    };

    // Call 1: start asks Codex at once (cwd 'empty', from the rig: a folder outside the state folder).
    const started = await call('delib_start', { question: 'Redis or Memcached for the session cache?', mode: 'quick', consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    expect(started.at).toBe('n=1 active');
    expect(started.consult).toMatchObject({ status: 'done' });
    expect(started.consult.reply).toMatchObject({
      iteration: 1,
      headline: 'Short answer: Redis.',
      points: [
        { id: 'P1.1', text: expect.stringContaining('keeps sessions across a restart') },
        { id: 'P1.2', text: expect.stringContaining('Memcached is faster') },
      ],
    });
    expect(r.prompts()[0]).toContain('Iteration 1/2 (quick: at most two rounds).');

    // Call 2: the whole judgment; the objection goes by point id, and the same call fetches the answer.
    const judged = await call('delib_judge', {
      deliberationId: id,
      points: FIRST_JUDGMENT,
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(judged.refused).toBeUndefined();
    expect(judged.at).toBe('n=2 active');
    expect(judged.consult).toMatchObject({ status: 'done' });
    expect(judged.consult.reply.answers).toEqual([{ point: 'P1.2', text: expect.stringContaining('multithreaded Memcached') }]);
    expect(judged.effects.join('\n')).toMatch(/P1\.2 defended/);
    expect(r.prompts()[1]).toMatch(/Objections \(answer each by point id: "Re P1\.2: \.\.\." or concede it\)/);

    // Call 3: place the defended point, end, and get the report with the answer in the same call.
    const answered = await call('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.2', bucket: 'dismissed', tag: 'FALSE', reason: 'a session cache runs far below the load where the gap shows' }],
      phase: { advance: true },
      synthesis: { recommendation: 'Redis', confidence: 'high', caveats: ['Revisit above 100k ops/s'] },
    });
    expect(answered.at).toBe('n=2 terminated');
    expect(answered.consult).toBeUndefined();
    expect(answered.brief).toMatchObject({ decision: 'Redis', confidence: 'high', caveats: ['Revisit above 100k ops/s'], turnsOn: [expect.any(String)], ruledOut: [expect.stringMatching(/ — shown false: a session cache runs far below/)] });
    // Quick mode keeps nothing on disk: no report file, only its resource, served from memory.
    const uri = `parley://deliberations/${id}/report.md`;
    expect(answered.brief.record).toContain(`(ids, versions, evidence): ${uri}; decision record:`);

    expect(calls).toBeLessThanOrEqual(4);
    expect(r.server.requests).toHaveLength(2);
    // No challenge ids anywhere Codex looked: objections go by point id.
    for (const prompt of r.prompts()) expect(prompt).not.toMatch(/\bC\d+\b/);
    expect(JSON.stringify(r.server.requests.map((req) => req.body.input))).not.toMatch(/Re C\d|\bC1\b/);
    // The whole deliberation lived in memory.
    expect(await readdir(r.stateDir, { recursive: true })).toEqual([]);
    // The result may be lost: the status of the finished deliberation gives the brief again, and the resource the full report.
    const status = await r.ok('delib_status', { deliberationId: id });
    expect(status).toMatchObject({ mode: 'quick', n: 2, status: 'terminated', brief: answered.brief });
    const [report] = (await r.client.readResource({ uri })).contents;
    expect((report as { text: string }).text).toMatch(/^# Deliberation report[\s\S]*## AGREED \(1\)\n\n- \*\*P1\.1\*\*[\s\S]*## DISMISSED \(1\)\n\n- \*\*P1\.2\*\*/);
  });
});

describe('quick mode keeps its two Codex turns when a reply is unusable (stdio, real codex)', () => {
  it('an unusable second reply is not retried: the format failure is reported and the orchestrator answers from what it has', { timeout: 180_000 }, async () => {
    const r = await startConsultRig(({ body }) => {
      const prompt = lastUserText(body);
      if (prompt.includes('Iteration 1/2')) return { text: FIRST };
      return { text: 'Well, it depends on the load.' };
    });
    const started = await r.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode: 'quick', consult: { waitSeconds: 55 } });
    const id: string = started.deliberationId;
    const judged = await r.ok('delib_judge', {
      deliberationId: id,
      points: FIRST_JUDGMENT,
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(judged.consult).toMatchObject({ status: 'done' });
    expect(judged.effects.join('\n')).toMatch(/format failure/);
    expect(judged.next).toEqual([expect.stringMatching(/^delib_judge: place P1\.2 .*ends the deliberation \(quick: both consultee turns spent/)]);
    expect(await r.refused('delib_consult', { deliberationId: id })).toMatch(/^\[quick-turns-spent\] .*Legal next moves: delib_judge\.$/);
    const answered = await r.ok('delib_judge', {
      deliberationId: id,
      points: [{ id: 'P1.2', bucket: 'unresolved', status: 'tradeoff', crux: 'raw speed against surviving a restart' }],
      phase: { advance: true },
      synthesis: { recommendation: 'Redis', confidence: 'medium' },
    });
    expect(answered.at).toBe('n=2 terminated');
    expect(answered.brief).toMatchObject({ decision: 'Redis', confidence: 'medium', open: [expect.stringMatching(/ — open: raw speed against surviving a restart$/)] });
    expect(r.server.requests).toHaveLength(2);
  });

  it('an unusable first reply is retried once in the same consult; those two turns are all, so the first advance ends it', { timeout: 180_000 }, async () => {
    let served = 0;
    const r = await startConsultRig(() => ({ text: served++ === 0 ? 'Well, it depends.' : FIRST }));
    const started = await r.ok('delib_start', { question: 'Redis or Memcached for the session cache?', mode: 'quick', consult: { waitSeconds: 55 } });
    expect(started.consult).toMatchObject({ status: 'done', codex: { turns: 2 } });
    const ended = await r.ok('delib_judge', {
      deliberationId: started.deliberationId,
      points: FIRST_JUDGMENT,
      phase: { advance: true },
      consult: { waitSeconds: 55 },
    });
    expect(ended).toMatchObject({ at: 'n=1 terminated', next: ['delib_judge: place P1.2 (points with a bucket)'] });
    expect(ended.consult).toBeUndefined();
    expect(r.server.requests).toHaveLength(2);
  });
});
