import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { sentence } from '../../wrapper/openai-chat.js';

describe('wrapper error messages', () => {
  it('an unreachable server reads "Connection error. Is the server running", with one full stop', async () => {
    const server = createServer();
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const { port } = server.address() as { port: number };
    await new Promise((closed) => server.close(closed));
    const backend = createBackend(`openai-compatible:http://127.0.0.1:${port}/v1#m`, { env: {}, maxRetries: 0 });
    const error = await backend.send({ history: [] }, 'p').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(BackendError);
    expect((error as BackendError).message).toMatch(/Connection error\. Is the server running and the base URL right\?$/);
    expect((error as BackendError).message).not.toMatch(/\.\./);
  });

  it('ends a borrowed message with exactly one full stop', () => {
    expect(sentence('Connection error.')).toBe('Connection error.');
    expect(sentence('Bad model ')).toBe('Bad model.');
    expect(sentence('Really?')).toBe('Really?');
  });
});
