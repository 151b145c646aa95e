import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSweepProgress, expandSweep, readRunResult, runFiles, runSweep, seedForRun, type SweepEvent } from '../../../protocols/sweep/index.js';
import type { Backend } from '../../../wrapper/backend.js';
import { createBackend } from '../../../wrapper/model-spec.js';
import { debaterScript, roundOf } from '../debate/scripts.js';
import { startScriptedChat, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { DEBATERS, debateMatrix, dialogicMatrix, dialogicReply, startDialogicWorld } from './worlds.js';

const work = await mkdtemp(join(tmpdir(), 'parley-sweep-backends-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

describe('sweep backends', () => {
  it('retries a rate-limited call after the backend gave up, where a plain run records a call failure', async () => {
    const answer = debaterScript(DEBATERS);
    // Agent d2's round-1 call is refused 5 times: the SDK's own 3 retries are not enough.
    let refusals = 0;
    const chat = await startScriptedChat((req: ChatRequestRecord) => {
      if (req.model === 'd2' && roundOf(req) === 1 && refusals < 5) {
        refusals += 1;
        return { status: 429, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'slow down', type: 'rate_limit' } } };
      }
      return answer(req);
    });
    try {
      const matrixOf = (rateLimited: number) =>
        debateMatrix(chat, { matrix: { agents: [['d1', 'd2'].map((model) => ({ model: `openai-compatible:${chat.baseUrl}#${model}` }))] }, retry: { rateLimited, baseMs: 1 } });
      const events: SweepEvent[] = [];
      const report = await runSweep(matrixOf(2), { outDir: join(work, 'retried'), concurrency: 1, onEvent: (event) => events.push(event) });
      const transcript = JSON.parse(await readFile(runFiles(report.dir, report.manifest.runs[0]!.id).output, 'utf8'));
      expect(transcript.rounds[0].turns.map((turn: { status: string }) => turn.status)).toEqual(['ok', 'ok']);
      expect(events.filter((event) => event.type === 'rate-limited')).toEqual([{ type: 'rate-limited', spec: expect.stringMatching(/#d2$/), retry: 1 }]);
      expect(refusals).toBe(5);

      refusals = 0;
      const plain = await runSweep(matrixOf(0), { outDir: join(work, 'not-retried'), concurrency: 1 });
      const failed = JSON.parse(await readFile(runFiles(plain.dir, plain.manifest.runs[0]!.id).output, 'utf8'));
      expect(failed.rounds[0].turns.map((turn: { status: string }) => turn.status).sort()).toEqual(['call-failure', 'ok']);
    } finally {
      await chat.close();
    }
  });

  it('keeps model calls per backend within the limit across concurrent runs, and seeds each run', async () => {
    const chat = await startDialogicWorld(10);
    try {
      const inFlight = new Map<string, number>();
      const peak = new Map<string, number>();
      const counting = (spec: string): Backend => {
        const real = createBackend(spec);
        return {
          spec,
          async send(conversation, prompt, options) {
            inFlight.set(spec, (inFlight.get(spec) ?? 0) + 1);
            peak.set(spec, Math.max(peak.get(spec) ?? 0, inFlight.get(spec)!));
            try {
              return await real.send(conversation, prompt, options);
            } finally {
              inFlight.set(spec, inFlight.get(spec)! - 1);
            }
          },
        };
      };
      const matrix = dialogicMatrix(chat, { perBackend: { default: 2, b1: 1 } });
      const report = await runSweep(matrix, { outDir: join(work, 'limits'), concurrency: 8, createBackend: counting });
      expect(report.failed).toEqual([]);
      const limitOf = (spec: string) => (spec.endsWith('#b1') ? 1 : 2);
      for (const [spec, most] of peak) expect(most, spec).toBeLessThanOrEqual(limitOf(spec));
      // Eight runs in flight make the limit, not the runs, what bounds the calls.
      expect([...peak.values()].some((most) => most === 2)).toBe(true);
      // Every request carries its run's seed: eight runs, eight seeds.
      const plans = expandSweep(matrix);
      expect(new Set(chat.requests.map((req) => req.body.seed))).toEqual(new Set(plans.map((plan) => seedForRun(plan.id))));
    } finally {
      await chat.close();
    }
  });
});

describe('sweep progress', () => {
  const result = (id: string, status: 'ok' | 'failed') => ({
    kind: 'parley.sweep-run' as const,
    id,
    status,
    params: {},
    repetition: 1,
    attempts: 1,
    startedAt: '',
    finishedAt: '',
    ...(status === 'failed' && { error: 'boom' }),
    usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 234, reasoningTokens: 0 },
    costUsd: 0.5,
    byBackend: {},
  });
  const events: SweepEvent[] = [
    { type: 'planned', total: 4, inShard: 3, finished: 1, toRun: 2 },
    { type: 'run-started', id: 'r2', resumed: true },
    { type: 'run-started', id: 'r3', resumed: false },
    { type: 'tokens', usage: { inputTokens: 1000, cachedInputTokens: 0, outputTokens: 234, reasoningTokens: 0 } },
    { type: 'run-finished', id: 'r2', result: result('r2', 'ok') },
    { type: 'run-finished', id: 'r3', result: result('r3', 'failed') },
  ];

  it('writes plain lines when not on a terminal', () => {
    let text = '';
    const progress = createSweepProgress({ write: (chunk: string) => (text += chunk) }, false);
    for (const event of events) progress.onEvent(event);
    progress.finish();
    expect(text.split('\n')).toEqual([
      'sweep: 3 run(s) in this shard of 4, 1 finished already, 2 to run',
      '[1/3] continuing r2',
      '[1/3] starting r3',
      '[2/3] finished r2 (1,234 tokens, $0.5000)',
      '[2/3] FAILED r3: boom',
      '',
    ]);
  });

  it('redraws one status line on a terminal', () => {
    let text = '';
    const progress = createSweepProgress({ write: (chunk: string) => (text += chunk), isTTY: true });
    for (const event of events) progress.onEvent(event);
    progress.finish();
    const screen = text.split('\r\x1b[2K').at(-1);
    expect(screen).toBe('sweep: 2/3 done, 0 running, 1 failed, 1,234 tokens\n');
    expect(text).toContain('sweep: 1/3 done, 2 running, 0 failed, 1,234 tokens');
  });

  it("writes a failed run's error with its control characters as escapes: only its own cursor controls reach the terminal", () => {
    let text = '';
    const progress = createSweepProgress({ write: (chunk: string) => (text += chunk), isTTY: true });
    progress.onEvent({ type: 'planned', total: 1, inShard: 1, finished: 0, toRun: 1 });
    progress.onEvent({ type: 'run-finished', id: 'r1', result: { ...result('r1', 'failed'), error: 'model said \x1bc\x1b]0;owned\x07 \u009b2J' } });
    expect(text).toContain('FAILED r1: model said \\u001bc\\u001b]0;owned\\u0007 \\u009b2J\n');
    // eslint-disable-next-line no-control-regex
    expect(text.replaceAll('\r\x1b[2K', '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('failed runs', () => {
  it('are recorded as failed, then continued from their audit logs by the next sweep', async () => {
    let broken = true;
    const world = dialogicReply(0);
    const chat = await startScriptedChat((req) => {
      // Model b2 refuses everything (a 400 is not retried) until it is "fixed".
      if (broken && req.model === 'b2') return { status: 400, body: { error: { message: 'bad request', type: 'invalid_request_error' } } };
      return world(req);
    });
    try {
      const matrix = dialogicMatrix(chat, { repetitions: 1 });
      const dir = join(work, 'failing');
      const first = await runSweep(matrix, { outDir: dir, concurrency: 2 });
      const p2 = expandSweep(matrix).filter((plan) => plan.params.pairing === 'p2').map((plan) => plan.id);
      expect(first.failed.sort()).toEqual(p2.sort());
      expect(first.ran).toHaveLength(4);
      const failedResult = await readRunResult(dir, p2[0]!);
      expect(failedResult).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringMatching(/400/) });
      const sentBefore = chat.requests.filter((req) => req.model === 'a2').length;

      broken = false;
      const second = await runSweep(matrix, { outDir: dir, concurrency: 2 });
      expect(second.skipped).toHaveLength(2);
      expect(second.ran.sort()).toEqual(p2.sort());
      expect(second.failed).toEqual([]);
      expect(await readRunResult(dir, p2[0]!)).toMatchObject({ status: 'ok', attempts: 2 });
      // Model a2's first generation succeeded in the failed attempt: it is replayed, not sent again.
      const a2Generations = chat.requests.filter((req) => req.model === 'a2' && req.messages.at(-1)?.content.includes('Generate 4-8 terms.'));
      expect(a2Generations).toHaveLength(2);
      expect(sentBefore).toBeGreaterThanOrEqual(2);
    } finally {
      await chat.close();
    }
  });
});
