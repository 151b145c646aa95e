/**
 * The plain arm's consult: one `codex exec` turn with the prompt a plain orchestrator wrote, the way
 * it would ask Codex once. The real codex binary runs through the wrapper parley itself uses
 * (wrapper/codex: the same argv, environment and sandbox checks), read-only, in an empty folder, with
 * the Codex home of the relay running on <dir> (relay-responses.ts writes <dir>/env.json).
 *
 *   node --import tsx scripts/ab/consult-once.ts --dir <dir> --prompt-file <file>
 *
 * Prints Codex's final answer and appends one line to <dir>/calls.jsonl (bytes in and out, time).
 * A second consult after one that answered is refused: this arm asks once.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCodex } from '../../wrapper/codex/index.js';
import { cliArgs, fail, type CallRecord } from '../real-minds/common.js';

const TOOL = 'consult-once';

const { dir, values } = cliArgs({ 'prompt-file': { type: 'string' } });
const promptFile = values['prompt-file'];
if (!promptFile) fail('usage: consult-once.ts --dir <dir> --prompt-file <file>');
const envFile = join(dir, 'env.json');
if (!existsSync(envFile)) fail(`${envFile} is missing: start the relay first (node --import tsx scripts/real-minds/relay-responses.ts --dir ${dir})`);
if (!existsSync(resolve(promptFile))) fail(`the prompt file ${resolve(promptFile)} does not exist`);
const prompt = readFileSync(resolve(promptFile), 'utf8');
if (!prompt.trim()) fail(`the prompt file ${resolve(promptFile)} is empty: write what you want to ask Codex`);

const logFile = join(dir, 'calls.jsonl');
const earlier = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallRecord) : [];
if (earlier.some((r) => r.tool === TOOL && !r.isError)) fail(`Codex was already consulted once in ${dir} (see calls.jsonl): this setup asks Codex once`);

const env = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>;
const timeout = Number(env.PARLEY_CONSULT_TIMEOUT_MS);
// Like parley's 'empty' consult folder: a new empty folder, removed afterwards.
const empty = mkdtempSync(join(tmpdir(), 'ab-empty-'));
const started = Date.now();
let answer: string;
let isError = false;
try {
  const result = await runCodex({
    prompt,
    env,
    sandbox: 'read-only',
    cwd: empty,
    hidden: [dir],
    ...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
  });
  answer = result.answer;
} catch (error) {
  answer = `codex failed: ${(error as Error).message}`;
  isError = true;
} finally {
  rmSync(empty, { recursive: true, force: true });
}
const record: CallRecord = { i: earlier.length + 1, tool: TOOL, argsBytes: Buffer.byteLength(prompt), resultBytes: Buffer.byteLength(answer), isError, ms: Date.now() - started };
appendFileSync(logFile, `${JSON.stringify(record)}\n`);
if (isError) fail(answer);
process.stdout.write(`${answer}\n`);
