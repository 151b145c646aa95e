/**
 * Lays out one A/B pair for a question of test/ab/questions: <root>/<question>/ with question.md and
 * the parley, plain and judge folders, and every mind's instructions, filled in for this pair, in
 * <root>/instructions/<question>/ (outside the pair: the consultees' briefs are in them).
 *
 *   node --import tsx scripts/ab/new-pair.ts --root <root> --question <name>
 *
 * Prints the processes to start. Refuses a pair folder that exists: nothing of an earlier run is overwritten.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, repoRoot, say, socketPath } from '../real-minds/common.js';
import { renderInstructions } from './instructions.js';
import { ARMS, QUESTIONS_DIR, armDir, judgeDir, readPairFile } from './pairs.js';

/** A unix socket's path is at most 107 bytes on Linux (103 on macOS); mcp.sock sits in the parley folder. */
const SOCKET_PATH_MAX = 100;

const { values } = parseArgs({ options: { root: { type: 'string' }, question: { type: 'string' } } });
if (!values.root || !values.question) fail('usage: new-pair.ts --root <root> --question <name>');
if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(values.question)) fail(`--question must be a question folder's kebab-case name, not ${JSON.stringify(values.question)}`);
const source = join(QUESTIONS_DIR, values.question);
if (!existsSync(source)) fail(`no question ${values.question} in ${QUESTIONS_DIR}`);
const root = resolve(values.root);
const pair = join(root, values.question);
if (existsSync(pair)) fail(`${pair} exists: choose another root, or keep and remove the earlier pair first`);
const socket = socketPath(armDir(pair, 'parley'));
if (Buffer.byteLength(socket) > SOCKET_PATH_MAX) fail(`${socket} is too long for a unix socket: choose a shorter root (such as /tmp/ab)`);

try {
  const question = readPairFile(join(source, 'question.md'), 'every question folder has question.md');
  const brief = readPairFile(join(source, 'consultee-brief.md'), 'every question folder has consultee-brief.md');
  const readme = readFileSync(join(repoRoot, 'scripts/ab/README.md'), 'utf8');
  const instructions = renderInstructions(readme, { repo: repoRoot, pair, question, brief });
  for (const dir of [...ARMS.map((arm) => armDir(pair, arm)), judgeDir(pair)]) mkdirSync(dir, { recursive: true });
  copyFileSync(join(source, 'question.md'), join(pair, 'question.md'));
  const out = join(root, 'instructions', values.question);
  mkdirSync(out, { recursive: true });
  for (const [name, text] of Object.entries(instructions)) writeFileSync(join(out, name), text);

  const tsx = (script: string, args: string) => `node --import tsx ${script} ${args}`;
  say(`pair ${pair}; instructions in ${out}`);
  say(`from ${repoRoot}, start (each in the background, stop with kill <pid>):`);
  say(`  ${tsx('scripts/real-minds/relay-responses.ts', `--dir ${armDir(pair, 'parley')}`)}`);
  say(`  ${tsx('scripts/real-minds/mcp-session.ts', `--dir ${armDir(pair, 'parley')}`)}   # after the relay wrote env.json`);
  say(`  ${tsx('scripts/real-minds/relay-responses.ts', `--dir ${armDir(pair, 'plain')}`)}`);
  say('then the four minds: parley-consultee.md, parley-orchestrator.md, plain-consultee.md, plain-orchestrator.md');
} catch (error) {
  fail((error as Error).message);
}
