import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startScriptedChat, type ScriptedChat } from '../doubles/scripted-chat.js';

let server: ScriptedChat | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('scripted chat server', () => {
  it('answers non-streaming calls in script order and records them', async () => {
    server = await startScriptedChat([{ content: 'first', usage: { prompt: 7, completion: 3 } }, { content: 'second' }]);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    const a = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'hi' }] });
    const b = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'again' }] });
    expect(a.choices[0]?.message.content).toBe('first');
    expect(a.usage?.prompt_tokens).toBe(7);
    expect(b.choices[0]?.message.content).toBe('second');
    expect(server.requests.map((r) => r.messages[0]?.content)).toEqual(['hi', 'again']);
    expect(server.requests[1]?.index).toBe(1);
  });

  it('streams SSE chunks with a final usage chunk', async () => {
    server = await startScriptedChat(() => ({ content: 'a longer streamed answer', usage: { prompt: 4, completion: 6 } }));
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'm1',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let completion = 0;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) completion = chunk.usage.completion_tokens;
    }
    expect(text).toBe('a longer streamed answer');
    expect(completion).toBe(6);
    expect(server.requests[0]?.stream).toBe(true);
  });

  it('returns scripted status errors with headers', async () => {
    server = await startScriptedChat([{ status: 429, headers: { 'retry-after': '0' } }]);
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 429 });
  });
});
