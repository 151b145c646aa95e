import type { IncomingMessage, Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

/** The whole request body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Waits `ms`; resolves true early if the client went away (a canceled or timed-out call). */
export function sleepUnlessClosed(ms: number, req: IncomingMessage): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      req.socket.off('close', onClose);
      resolve(false);
    }, ms);
    req.socket.once('close', onClose);
  });
}

/** Listens on 127.0.0.1 (a free port); close() drops open connections so no test waits on a keep-alive. */
export async function listenOnLoopback(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 that nothing listens on (taken, then released): an endpoint that is down. */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as { port: number };
  await new Promise((closed) => server.close(closed));
  return port;
}
