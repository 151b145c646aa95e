import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BackendError } from '../../wrapper/backend.js';
import { createBackend } from '../../wrapper/model-spec.js';
import { sentence } from '../../schemas/user-facing-error.js';

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

describe('HTTP errors say the status text and the origin, once (issue 28, item 6)', () => {
  it.each([
    [{ error: { message: 'The model `missing` does not exist.' } }, /^missing at http:\/\/127\.0\.0\.1:\d+ answered HTTP 404 Not Found: The model `missing` does not exist\. Check the model name and base URL\.$/],
    [{ error: { message: '404 page not found' } }, /^missing at http:\/\/127\.0\.0\.1:\d+ answered HTTP 404 Not Found: page not found\. Check the model name and base URL\.$/],
    [undefined, /^missing at http:\/\/127\.0\.0\.1:\d+ answered HTTP 404 Not Found with no body\. Check the model name and base URL\.$/],
  ])('%j', async (body, expected) => {
    const server = createHttpServer((_req, res) => {
      res.writeHead(404, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? '' : JSON.stringify(body));
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const { port } = server.address() as { port: number };
    try {
      const backend = createBackend(`openai-compatible:http://127.0.0.1:${port}/v1/secret-path?token=t0k#missing`, { env: {}, maxRetries: 0 });
      const error = (await backend.send({ history: [] }, 'p').then(
        () => undefined,
        (caught: unknown) => caught,
      )) as BackendError;
      expect(error.message).toMatch(expected);
      expect(error.message).not.toMatch(/HTTP 404: 404|secret-path|t0k|\.\./);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
