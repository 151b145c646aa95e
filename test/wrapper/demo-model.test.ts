/**
 * parley's local demo model (product code, not a test double): it answers each protocol as the real
 * engines ask it, over the real OpenAI-compatible backend, with replies that fit the schemas sent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../mcp-server/deps.js';
import { buildConsulteePrompt } from '../../protocols/argumentation/index.js';
import { runDebateToFile } from '../../protocols/debate/index.js';
import { runDialogicToFile } from '../../protocols/dialogic/index.js';
import { parseAuditLines } from '../../state/audit-log.js';
import { jsonSchemaOf } from '../../wrapper/json-schema.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { replyText } from '../../wrapper/demo-model/respond.js';
import { fillSchema } from '../../wrapper/demo-model/schema-fill.js';
import { startDemoModel, type DemoModel } from '../../wrapper/demo-model/server.js';

let model: DemoModel;
let dir: string;
const spec = (name: string) => `openai-compatible:${model.baseUrl}#${name}`;

beforeAll(async () => {
  model = await startDemoModel();
  dir = await mkdtemp(join(tmpdir(), 'parley-demo-model-'));
});
afterAll(async () => {
  await model.close();
  await rm(dir, { recursive: true, force: true });
});

/** The model calls a run's audit log records, and how many took more than one attempt (a repair prompt). */
async function calls(auditPath: string) {
  const records = parseAuditLines(await readFile(auditPath, 'utf8')).filter((r) => r.type === 'model_call');
  return { count: records.length, repaired: records.filter((r) => !Array.isArray(r.attempts) || r.attempts.length !== 1).length };
}

describe('the demo model in each protocol (the real engines, over HTTP on 127.0.0.1)', () => {
  it('debate: every turn and both judges answer in the reply schema; agents engage each other and two change their answer', async () => {
    const transcript = await runDebateToFile(
      {
        question: 'Should a five-person startup split its monolith into microservices this year?',
        options: ['yes', 'no'],
        rounds: 3,
        agents: [{ model: spec('demo-optimist') }, { model: spec('demo-skeptic') }, { model: spec('demo-pragmatist') }],
        crit: { judge: spec('demo-judge'), variant: 'both' },
        rca: { judge: spec('demo-judge') },
      },
      { outPath: join(dir, 'debate.json') },
    );
    const turns = transcript.rounds.flatMap((round) => round.turns);
    expect(turns.map((turn) => turn.status)).toEqual(Array(9).fill('ok'));
    expect(transcript.rounds.map((round) => round.turns.map((turn) => `${turn.label}:${turn.record?.answer}`).sort())).toEqual([
      ['Agent 1:yes', 'Agent 2:no', 'Agent 3:yes'],
      ['Agent 1:yes', 'Agent 2:no', 'Agent 3:no'],
      ['Agent 1:no', 'Agent 2:no', 'Agent 3:no'],
    ]);
    const references = turns.flatMap((turn) => turn.record?.references ?? []);
    expect(references.length).toBeGreaterThanOrEqual(6);
    expect(references.every((ref) => ref.resolved && ref.targetClaim)).toBe(true);
    expect(new Set(references.map((ref) => ref.stance))).toEqual(new Set(['rebut', 'support', 'concede', 'extend']));
    expect(transcript.rounds.map((round) => round.crit?.status)).toEqual(['ok', 'ok', 'ok']);
    expect(transcript.rounds.slice(1).map((round) => round.rca?.verdicts.map((v) => v.verdict))).toEqual([
      ['CONSISTENT', 'CONSISTENT', 'CONSISTENT'],
      ['CONSISTENT', 'CONSISTENT', 'CONSISTENT'],
    ]);
    expect(await calls(join(dir, 'debate.run/audit.jsonl'))).toEqual({ count: 14, repaired: 0 });
  });

  it('dialogic: generation, keep / refine / drop, counter-revision and concession, one regeneration, then bilateral exhaustion', async () => {
    const output = await runDialogicToFile({ modelA: spec('demo-a'), modelB: spec('demo-b') }, { outPath: join(dir, 'dialogic.json') });
    expect(output.stopReason).toBe('bilateral_exhaustion');
    expect(output.run.submitted_terms.map((t) => t.term)).toEqual(expect.arrayContaining(['Prompt horizon', 'Thrown context', 'Closure sense', 'Care for the asker']));
    expect(output.run.dropped_terms.map((t) => t.term).sort()).toEqual(['Idle talk drift', 'Ready-to-hand phrasing', 'Retention of the instruction']);
    const actions = output.run.submitted_terms.concat(output.run.dropped_terms).flatMap((t) => t.generation_metadata.negotiation_history.map((h) => h.action));
    expect(new Set(actions)).toEqual(new Set(['KEEP', 'REFINE', 'DROP']));
    expect(await calls(join(dir, 'dialogic.run/audit.jsonl'))).toEqual({ count: output.calls.sent, repaired: 0 });
  });

  it('argumentation: the engine reads its first reply as five labelled points, then a partial concession and a concession by challenge id', async () => {
    const deps = createDeps({ home: dir, env: {} });
    const d = deps.deliberations;
    const { state: started } = await d.start({ question: 'Should we put a Redis cache in front of Postgres for our product catalogue?', mode: 'minimal', constraints: ['Reads dominate.'] }, 'demo-consultee');
    const first = await d.apply(started.id, 'reply_record', { text: replyText({ model: 'demo-consultee', messages: [{ role: 'user', content: buildConsulteePrompt(started, 'first') }] }), sessionId: 's' });
    expect(first.state.points.map((p) => [p.id, p.label])).toEqual([['P1.1', 'INFERENCE'], ['P1.2', 'GUESS'], ['P1.3', 'INFERENCE'], ['P1.4', 'INFERENCE'], ['P1.5', 'GUESS']]);
    const judged = await d.apply(started.id, 'judge', {
      points: [
        { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a read-mostly table suits a cache' },
        { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'Nothing measured shows it.' },
        { id: 'P1.3', verdict: 'AGREE', claimType: 'value', reason: 'stale prices are costly' },
        { id: 'P1.4', verdict: 'AGREE', claimType: 'value', reason: 'measuring first is cheap' },
        { id: 'P1.5', verdict: 'REJECT', flaw: 'Always is false.', claimType: 'empirical', evidence: 'hot reads come from RAM in both', terminalWhy: 'one counterexample refutes it' },
      ],
      phase: { advance: true },
    });
    expect(judged.refused).toBeUndefined();
    const second = await d.apply(started.id, 'reply_record', { text: replyText({ model: 'demo-consultee', messages: [{ role: 'user', content: buildConsulteePrompt(judged.state, 'next') }] }) });
    expect(second.state.challenges.map((c) => [c.id, c.status, c.partial ?? false])).toEqual([['C1', 'defended', true], ['C2', 'conceded', false]]);
    expect(second.state.challenges[0]!.narrowedClaim).toMatch(/^with the default settings Postgres keeps/);
  });
});

describe('the demo model as an HTTP server', () => {
  it('listens on 127.0.0.1 only and lists its models', async () => {
    expect(model.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const listed = (await (await fetch(`${model.baseUrl}/models`)).json()) as { data: { id: string }[] };
    expect(listed.data.map((m) => m.id)).toEqual(expect.arrayContaining(['demo-optimist', 'demo-skeptic', 'demo-a', 'demo-b']));
  });

  it('answers the OpenAI chat API streamed and not, with usage, and says what it is when a prompt is not a protocol\'s', async () => {
    for (const stream of [false, true]) {
      const backend = createBackend(spec('demo-judge'), { stream });
      const reply = await backend.send({ history: [] }, 'What is the capital of France?');
      expect(reply.text).toMatch(/^I am parley's local demo model: canned replies chosen by rules, no language model behind them\./);
      expect(reply.usage.outputTokens).toBeGreaterThan(0);
    }
  });

  it('refuses what it cannot read: an unknown route (404), a body that is not JSON (400), a body over 8 MB (413)', async () => {
    const post = (path: string, body: string | Buffer) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${new URL(model.baseUrl).origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(413) : reject(error)));
        req.end(body);
      });
    expect(await post('/v1/embeddings', '{}')).toBe(404);
    expect(await post('/v1/chat/completions', 'not json')).toBe(400);
    expect(await post('/v1/chat/completions', Buffer.alloc(9 * 1024 * 1024, 32))).toBe(413);
    // Still serving afterwards.
    expect((await fetch(`${model.baseUrl}/models`)).status).toBe(200);
  });

  it('fills out any reply schema it is sent, so an unknown structured request still gets JSON that fits', () => {
    const Schema = z.object({ verdict: z.enum(['KEEP', 'DROP']), items: z.array(z.object({ name: z.string(), score: z.number().min(1).max(10) })).min(2), note: z.string().nullable(), done: z.boolean() });
    const filled = fillSchema(jsonSchemaOf(Schema), 'anything');
    expect(Schema.safeParse(filled).success).toBe(true);
    const text = replyText({ model: 'demo-judge', messages: [{ role: 'user', content: 'Rate these.' }], schemaName: 'something_new', schema: jsonSchemaOf(Schema) });
    expect(Schema.safeParse(JSON.parse(text)).success).toBe(true);
  });
});
