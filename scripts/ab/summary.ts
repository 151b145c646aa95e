/**
 * The A/B outcome over the kept pairs (issue 26's measure), exactly four lines on stdout:
 *
 *   node --import tsx scripts/ab/summary.ts [--root <pairs folder>]   (npm run -s ab:summary; default test/ab/pairs)
 *
 * A pair counts once its first judge's verdict exists. With a second judge (labels swapped), parley
 * counts as preferred or tied only if both verdicts say so, and as strongly worse if either says so.
 * What each answer with record leaks holds, and pairs not yet judged, go to stderr.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail } from '../real-minds/common.js';
import { JUDGES, PAIRS_DIR, armDir, judgeDir, listPairs, readPairFile } from './pairs.js';
import { recordLeaks } from './record-leaks.js';
import { Key, preferredArm, readChecked, Verdict } from './verdict.js';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? PAIRS_DIR);
const note = (line: string) => process.stderr.write(`${line}\n`);

let pairs = 0;
let preferredOrTied = 0;
let stronglyWorse = 0;
let withIds = 0;
try {
  for (const pair of listPairs(root)) {
    if (!existsSync(join(judgeDir(pair), JUDGES[0].verdict))) {
      note(`${basename(pair)}: not judged yet, left out`);
      continue;
    }
    const judged = JUDGES.filter((j) => existsSync(join(judgeDir(pair), j.verdict))).map((j) => ({
      verdict: readChecked(join(judgeDir(pair), j.verdict), Verdict, 'verdict'),
      key: readChecked(join(judgeDir(pair), j.key), Key, 'key'),
    }));
    pairs += 1;
    if (judged.every(({ verdict, key }) => preferredArm(verdict, key) !== 'plain')) preferredOrTied += 1;
    if (judged.some(({ verdict, key }) => preferredArm(verdict, key) === 'plain' && verdict.strength === 'strongly')) stronglyWorse += 1;
    const leaks = recordLeaks(readPairFile(join(armDir(pair, 'parley'), 'answer.md'), "the parley orchestrator's final answer"));
    if (leaks.length) {
      withIds += 1;
      note(`${basename(pair)}: the parley answer holds ${leaks.join(', ')}`);
    }
  }
} catch (error) {
  fail((error as Error).message);
}

const line = (name: string, value: number, tail = '') => process.stdout.write(`${name.padEnd(25)}${value}${tail}\n`);
line('ab.pairs', pairs);
line('ab.parleyPreferredOrTied', preferredOrTied);
line('ab.parleyStronglyWorse', stronglyWorse);
line('ab.answersWithIds', withIds, '   (final parley answers holding a point id, a file path or a cut-off line)');
