/**
 * A Responses-API server on 127.0.0.1 whose "model" is whoever answers the prompt files: each Codex
 * request is written to <dir>/NNN.prompt.md (its last user message; the required JSON schema, if any,
 * to NNN.schema.json), and the text of <dir>/NNN.reply.md, once it exists, is streamed back.
 *
 *   node --import tsx scripts/real-minds/relay-responses.ts --dir <folder>
 *
 * The streaming is test/doubles/scripted-responses.ts itself: this relay holds each request until
 * its reply exists, then forwards it, reply attached, to a scripted server that answers with it.
 * <dir>/env.json gets the environment a parley server needs to consult through the real codex binary.
 */
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { nodeFs } from '../../state/fs-seam.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { makeCodexHome } from '../../test/doubles/codex-home.js';
import { listenOnLoopback, readBody, sleepUnlessClosed } from '../../test/doubles/http-helpers.js';
import { startScriptedResponses, type RequestBody } from '../../test/doubles/scripted-responses.js';
import { lastUserText } from '../../test/mcp-server/consult/rig.js';
import { cliArgs, repoRoot, say, forwardTo } from './common.js';

const POLL_MS = 500;
const WAIT_MS = 30 * 60_000;
const REPLY_FIELD = 'x_real_minds_reply';

const { dir } = cliArgs();
/** A mind polling for prompt files never reads half of one (nor the relay's env.json). */
const writeFile = (path: string, text: string) => writeFileAtomic(nodeFs, path, text);
const inner = await startScriptedResponses(({ body }) => ({ text: String(body?.[REPLY_FIELD] ?? '') }));
let turns = Math.max(0, ...readdirSync(dir).map((name) => Number(/^(\d+)\.prompt\.md$/.exec(name)?.[1] ?? 0)));

const server = createServer((req, res) => {
  void handle(req, res).catch((error: unknown) => {
    console.error('relay: handler failed', error);
    if (!res.headersSent) res.writeHead(500);
    res.end();
  });
});

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  let body: RequestBody;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  if (req.method !== 'POST' || !req.url?.split('?')[0]?.endsWith('/responses') || typeof body !== 'object') {
    return forward(req, res, raw); // the scripted server answers what it answers (a 404 JSON error)
  }
  const n = String(++turns).padStart(3, '0');
  const format = body?.text?.format;
  if (format?.type === 'json_schema') await writeFile(join(dir, `${n}.schema.json`), `${JSON.stringify(format.schema, null, 2)}\n`);
  await writeFile(join(dir, `${n}.prompt.md`), lastUserText(body));
  say(`${n}: waiting for ${join(dir, `${n}.reply.md`)}${format?.type === 'json_schema' ? ` (JSON matching ${n}.schema.json)` : ''}`);

  const replyFile = join(dir, `${n}.reply.md`);
  const started = Date.now();
  while (!existsSync(replyFile)) {
    const gone = await sleepUnlessClosed(POLL_MS, req);
    if (gone || Date.now() - started > WAIT_MS) {
      const why = gone ? 'Codex closed the request (canceled or timed out)' : `no reply within ${WAIT_MS / 60_000} min`;
      await writeFile(join(dir, `${n}.abandoned.md`), `${why}; do not answer ${n}.\n`);
      say(`${n}: abandoned: ${why}`);
      if (!gone) res.writeHead(504, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: why } }));
      return;
    }
  }
  await sleepUnlessClosed(200, req); // let the writer finish the file
  const reply = (await readFile(replyFile, 'utf8')).trim();
  say(`${n}: replied (${Buffer.byteLength(reply)} bytes)`);
  await forward(req, res, JSON.stringify({ ...body, [REPLY_FIELD]: reply }));
}

const forward = (req: IncomingMessage, res: ServerResponse, body: string) => forwardTo(inner.baseUrl, req, res, body);

const listening = await listenOnLoopback(server);
const baseUrl = `${listening.origin}/v1`;
const codex = await makeCodexHome(baseUrl);
const env = {
  CODEX_HOME: codex.codexHome,
  TMPDIR: String(codex.env.TMPDIR),
  PARLEY_CODEX_PATH: join(repoRoot, 'node_modules/.bin/codex'),
  PARLEY_CONSULT_CWD: 'empty',
  PARLEY_STATE_DIR: join(dir, 'state'),
  PARLEY_CONSULT_TIMEOUT_MS: String(WAIT_MS),
};
await writeFile(join(dir, 'env.json'), `${JSON.stringify(env, null, 2)}\n`);
say(`relay: ${baseUrl} (CODEX_HOME ${codex.codexHome}); environment in ${join(dir, 'env.json')}`);

async function stop(): Promise<void> {
  await listening.close();
  await inner.close();
  await codex.cleanup();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
