/**
 * What a blind judge sees of a pair: <pair>/judge/packet.md (the question and the two final answers
 * as X and Y, in an order the seed decides) and, never shown to the judge, <pair>/judge/key.json
 * (which label is which arm). verdict.schema.json beside them is the form of the judge's verdict.
 *
 *   node --import tsx scripts/ab/judge-packet.ts --pair <dir> [--seed n]
 *   node --import tsx scripts/ab/judge-packet.ts --pair <dir> --swap   # packet-2.md, key-2.json: key.json's labels swapped
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, say } from '../real-minds/common.js';
import { keyFor, packetText, swapped } from './packet.js';
import { ARMS, JUDGES, armDir, judgeDir, readPairFile, type Arm } from './pairs.js';
import { Key, readChecked, verdictJsonSchema } from './verdict.js';

const { values } = parseArgs({ options: { pair: { type: 'string' }, seed: { type: 'string' }, swap: { type: 'boolean' } } });
if (!values.pair) fail('usage: judge-packet.ts --pair <dir> [--seed n | --swap]');
if (values.swap && values.seed !== undefined) fail('--swap takes the labels from key.json: give no --seed with it');
if (values.seed !== undefined && !/^\d{1,9}$/.test(values.seed)) fail(`--seed must be a whole number (0-999999999), not ${JSON.stringify(values.seed)}`);
const pair = resolve(values.pair);
const out = judgeDir(pair);

try {
  const question = readPairFile(join(pair, 'question.md'), 'copy the question into the pair (new-pair.ts does)');
  const answers = Object.fromEntries(
    ARMS.map((arm) => [arm, readPairFile(join(armDir(pair, arm), 'answer.md'), `the ${arm} orchestrator's final answer`)]),
  ) as Record<Arm, string>;
  const judge = JUDGES[values.swap ? 1 : 0];
  const key = values.swap
    ? swapped(readChecked(join(out, JUDGES[0].key), Key, 'key (run judge-packet.ts without --swap first)'), JUDGES[0].key)
    : keyFor(values.seed === undefined ? randomInt(1_000_000_000) : Number(values.seed));
  if (existsSync(join(out, judge.verdict))) fail(`${join(out, judge.verdict)} exists: this judge has judged; remove it to judge again`);
  const { packet, redactions } = packetText(question, answers, key);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, judge.packet), packet);
  writeFileSync(join(out, judge.key), `${JSON.stringify({ ...key, redactions }, null, 2)}\n`);
  writeFileSync(join(out, 'verdict.schema.json'), `${JSON.stringify(verdictJsonSchema(), null, 2)}\n`);
  for (const arm of ARMS) if (redactions[arm]) process.stderr.write(`note: the ${arm} answer names the tool ${redactions[arm]} time(s); the packet shows [tool] instead\n`);
  say(`wrote ${join(out, judge.packet)} for the judge; ${join(out, judge.key)} is for you only`);
} catch (error) {
  fail((error as Error).message);
}
