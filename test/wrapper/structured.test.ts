import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBackend } from '../../wrapper/model-spec.js';
import { extractJson, sendStructured } from '../../wrapper/structured.js';
import { startScriptedChat, type ChatReply, type ScriptedChat } from '../doubles/scripted-chat.js';

const Verdict = z.object({ verdict: z.enum(['accept', 'reject']), reason: z.string().min(1) });

let server: ScriptedChat | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(script: ChatReply[], spec = (url: string) => `openai-compatible:${url}#m`) {
  server = await startScriptedChat(script);
  return { backend: createBackend(spec(server.baseUrl), { env: { ANTHROPIC_API_KEY: 'k-test-anthropic' }, baseUrl: server.baseUrl }), server };
}

describe('sendStructured', () => {
  it('asks for a json_schema response format and returns the validated value', async () => {
    const { backend, server: s } = await backendFor([{ content: '{"verdict":"accept","reason":"sound"}', usage: { prompt: 20, completion: 8 } }]);
    const result = await sendStructured(backend, { history: [] }, 'judge this', Verdict, { schemaName: 'verdict' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toEqual({ verdict: 'accept', reason: 'sound' });
    expect(result.attempts).toHaveLength(1);
    expect(result.attempts[0]?.usage.inputTokens).toBe(20);
    const format = s.requests[0]?.body.response_format;
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('verdict');
    expect(format.json_schema.schema.properties.verdict.enum).toEqual(['accept', 'reject']);
    expect(format.json_schema.schema).not.toHaveProperty('$schema');
  });

  it('takes JSON from a fenced block in prose (a provider without json_schema)', async () => {
    const { backend, server: s } = await backendFor(
      [{ content: 'Here is my verdict:\n```json\n{"verdict":"reject","reason":"circular"}\n```\nThanks.' }],
      () => 'anthropic:claude-sonnet-4-5',
    );
    const result = await sendStructured(backend, { history: [] }, 'judge', Verdict);
    expect(result.ok && result.value).toEqual({ verdict: 'reject', reason: 'circular' });
    expect(s.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('repairs a malformed reply once, quoting the validation error, with the bad turn in history', async () => {
    const { backend, server: s } = await backendFor([{ content: '{"verdict":"maybe","reason":"unsure"}' }, { content: '{"verdict":"accept","reason":"fixed"}' }]);
    const result = await sendStructured(backend, { system: 'sys', history: [] }, 'judge', Verdict);
    expect(result.ok && result.value).toEqual({ verdict: 'accept', reason: 'fixed' });
    expect(result.attempts).toHaveLength(2);
    expect(result.attempts[0]?.error).toMatch(/verdict/);
    expect(result.attempts[1]?.error).toBeUndefined();
    const repair = s.requests[1]?.messages ?? [];
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(repair[2]?.content).toBe('{"verdict":"maybe","reason":"unsure"}');
    expect(repair[3]?.content).toContain('Your previous reply could not be used');
    expect(repair[3]?.content).toContain(result.attempts[0]?.error ?? 'missing');
  });

  it('records a format failure with both attempts when the repair also fails', async () => {
    const { backend } = await backendFor([{ content: 'I accept, it is sound.' }, { content: '{"verdict":"accept"}' }]);
    const result = await sendStructured(backend, { history: [] }, 'judge', Verdict);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatch(/^format failure after one repair retry/);
    expect(result.error).toMatch(/reason/);
    expect(result.attempts.map((a) => a.raw)).toEqual(['I accept, it is sound.', '{"verdict":"accept"}']);
    expect(result.attempts[0]?.error).toMatch(/no JSON value/);
    expect(result.attempts.every((a) => a.error !== undefined)).toBe(true);
    expect('value' in result).toBe(false);
  });

  it('picks the JSON value that fits the schema when the reply holds several', async () => {
    const { backend } = await backendFor([{ content: 'As argued in [1], and per {"note":"aside"}: {"verdict":"reject","reason":"begs the question"}' }]);
    const result = await sendStructured(backend, { history: [] }, 'judge', Verdict);
    expect(result.ok && result.value).toEqual({ verdict: 'reject', reason: 'begs the question' });
    expect(result.attempts).toHaveLength(1);
  });

  it('lets a transport error propagate rather than calling it a format failure', async () => {
    const { backend } = await backendFor([{ status: 400, body: { error: { message: 'bad request' } } }]);
    await expect(sendStructured(backend, { history: [] }, 'judge', Verdict)).rejects.toMatchObject({ kind: 'http' });
  });
});

describe('extractJson', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['  [1,2]  ', [1, 2]],
    ['```json\n{"a":"b"}\n```', { a: 'b' }],
    ['text ```\n{"x":true}\n``` more', { x: true }],
    ['Sure! {"a":{"b":[1,{"c":"}"}]}} trailing', { a: { b: [1, { c: '}' }] } }],
    ['noise {not json} then {"ok":1}', { ok: 1 }],
    ['```js\nnot json\n```\n```json\n{"second":2}\n```', { second: 2 }],
    ['quote "\\"{" inside {"s":"a \\" { b"}', { s: 'a " { b' }],
    ['[see note] then {"a":1}', { a: 1 }],
  ])('%j', (text, expected) => {
    expect(extractJson(text)).toEqual(expected);
  });

  it.each(['', 'no json here', '{"unclosed": 1', '```json\n{bad}\n```'])('throws on %j', (text) => {
    expect(() => extractJson(text)).toThrow(/JSON|empty/);
  });

  it('finds any JSON object embedded in prose', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })), fc.constantFrom('Here: ', 'Verdict -> ', ''), (value, prefix) => {
        const normalized = JSON.parse(JSON.stringify(value));
        expect(extractJson(`${prefix}${JSON.stringify(value)} done.`)).toEqual(normalized);
      }),
    );
  });
});
