import type { IncomingMessage } from 'node:http';

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
