/** scripts/real-minds/relay-chat.ts: the real relay process, reached through parley's own OpenAI-compatible backend. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from '../../wrapper/json-schema.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { sendStructured } from '../../wrapper/structured.js';
import { startRelayChat, until, type RelayChat } from './relay-chat-process.js';

let dir: string;
let relay: RelayChat;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-relay-chat-'));
  relay = await startRelayChat(dir);
});
afterAll(async () => {
  await relay.stop();
  await rm(dir, { recursive: true, force: true });
});

const spec = (model: string) => `openai-compatible:${relay.baseUrl}#${model}`;
const file = (model: string, name: string) => join(dir, model, name);
/** How a mind answers: write elsewhere, then rename into place. */
async function reply(model: string, n: string, text: string): Promise<void> {
  await writeFile(file(model, `${n}.reply.tmp`), text);
  await rename(file(model, `${n}.reply.tmp`), file(model, `${n}.reply.md`));
}
const calls = () => readFileSync(join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));

// Each test starts or waits on a real process: generous bounds for a loaded machine, never a measured time.
describe('relay-chat', { timeout: 120_000 }, () => {
  it('writes each request into its model\'s folder (system, newest user message, schema) and answers with the reply file', async () => {
    const schema = z.object({ answer: z.string() });
    const conversation = { system: 'You are Agent 1.', history: [{ role: 'user' as const, content: 'Round 1.' }, { role: 'assistant' as const, content: '{"answer": "a"}' }] };
    const call = sendStructured(createBackend(spec('debater-1')), conversation, 'Round 2 of 2, the last round.', schema, { schemaName: 'debate_turn' });
    await until(() => existsSync(file('debater-1', '001.prompt.md')));
    expect(readFileSync(file('debater-1', '001.prompt.md'), 'utf8')).toBe('# System\n\nYou are Agent 1.\n\n# User (after 2 earlier messages of this conversation)\n\nRound 2 of 2, the last round.\n');
    expect(JSON.parse(readFileSync(file('debater-1', '001.schema.json'), 'utf8'))).toEqual(jsonSchemaOf(schema));
    await until(() => relay.output().includes('debater-1/001: waiting for')); // printed after the file is in place
    await reply('debater-1', '001', '{"answer": "monorepo"}');
    const result = await call;
    expect(result.ok && result.value).toEqual({ answer: 'monorepo' });
    expect(calls()[0]).toMatchObject({ model: 'debater-1', n: '001', stream: false, replyBytes: 22 });
  });

  it('streams the reply (SSE) when parley streams, and writes no schema for a plain request', async () => {
    const call = createBackend(spec('judge'), { stream: true }).send({ history: [] }, 'Score round 1.');
    await until(() => existsSync(file('judge', '001.prompt.md')));
    expect(readFileSync(file('judge', '001.prompt.md'), 'utf8')).toBe('# User\n\nScore round 1.\n');
    expect(existsSync(file('judge', '001.schema.json'))).toBe(false);
    await reply('judge', '001', 'All three reason well.');
    expect((await call).text).toBe('All three reason well.');
    expect(calls().find((line) => line.model === 'judge')).toMatchObject({ n: '001', stream: true });
  });

  it('marks a request parley gave up on as abandoned, and a restarted relay numbers on from the files there', async () => {
    const controller = new AbortController();
    const call = createBackend(spec('debater-1')).send({ history: [] }, 'Round 1.', { signal: controller.signal });
    await until(() => existsSync(file('debater-1', '002.prompt.md')));
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: 'canceled' });
    await until(() => existsSync(file('debater-1', '002.abandoned.md')));
    expect(readFileSync(file('debater-1', '002.abandoned.md'), 'utf8')).toMatch(/^parley closed the request .*do not answer 002/);

    await relay.stop();
    relay = await startRelayChat(dir);
    const next = createBackend(spec('debater-1')).send({ history: [] }, 'Round 1 again.');
    await until(() => existsSync(file('debater-1', '003.prompt.md')));
    await reply('debater-1', '003', 'ok');
    expect((await next).text).toBe('ok');
  });
});
