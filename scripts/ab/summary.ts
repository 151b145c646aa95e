/**
 * The A/B outcome over the kept pairs (issue 26's measure), exactly four lines on stdout:
 *
 *   node --import tsx scripts/ab/summary.ts [--root <pairs folder>]   (npm run -s ab:summary; default test/ab/pairs)
 *
 * A pair counts once its first judge's verdict exists. Each verdict leans one way by its strength
 * (slightly 1, clearly 2, strongly 3; a tie 0): with a second judge (labels swapped) the pair's outcome
 * is the sum, so two judges who lean opposite ways as strongly call it a tie. parley counts as strongly
 * worse if any judge prefers the plain answer strongly.
 * What each answer with record leaks holds, and pairs not yet judged, go to stderr, and so does, per
 * pair, how many claims Codex replaced, narrowed or gave up in the record and how many judges saw the parley
 * answer tell that Codex changed its position (issue 26: every reversal visible).
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail } from '../real-minds/common.js';
import { JUDGES, PAIRS_DIR, armDir, judgeDir, listPairs, readPairFile } from './pairs.js';
import { recordLeaks } from './record-leaks.js';
import { codexReversals } from './reversals.js';
import { Key, preferredArm, readChecked, Verdict } from './verdict.js';

const STRENGTH = { slightly: 1, clearly: 2, strongly: 3 } as const;
/** How far one verdict leans to parley (positive) or the plain answer (negative). */
const leaning = (arm: string, strength: keyof typeof STRENGTH | undefined) => (arm === 'tie' ? 0 : (arm === 'parley' ? 1 : -1) * STRENGTH[strength ?? 'slightly']);

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? PAIRS_DIR);
const note = (line: string) => process.stderr.write(`${line}\n`);

let pairs = 0;
let preferredOrTied = 0;
let stronglyWorse = 0;
let withIds = 0;
let withRecord = 0;
let withReversals = 0;
let reversalsSeen = 0;
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
    const lean = judged.reduce((sum, { verdict, key }) => sum + leaning(preferredArm(verdict, key), verdict.strength), 0);
    note(`${basename(pair)}: ${judged.map(({ verdict, key }) => `${preferredArm(verdict, key)}${verdict.strength ? ` ${verdict.strength}` : ''}`).join(', ')}`);
    if (lean >= 0) preferredOrTied += 1;
    if (judged.some(({ verdict, key }) => preferredArm(verdict, key) === 'plain' && verdict.strength === 'strongly')) stronglyWorse += 1;
    const moved = codexReversals(armDir(pair, 'parley'));
    const seen = judged.filter(({ verdict, key }) => verdict[key.X === 'parley' ? 'X' : 'Y'].reversalVisible).length;
    if (moved === undefined) note(`${basename(pair)}: no record kept; judges saw Codex change its position in ${seen} of ${judged.length}`);
    else note(`${basename(pair)}: Codex replaced, narrowed or gave up ${moved} claim${moved === 1 ? '' : 's'} on an objection; judges saw it change its position in ${seen} of ${judged.length}`);
    if (moved !== undefined) withRecord += 1;
    if (moved) {
      withReversals += 1;
      if (seen === judged.length) reversalsSeen += 1;
    }
    const leaks = recordLeaks(readPairFile(join(armDir(pair, 'parley'), 'answer.md'), "the parley orchestrator's final answer"));
    if (leaks.length) {
      withIds += 1;
      note(`${basename(pair)}: the parley answer holds ${leaks.join(', ')}`);
    }
  }
} catch (error) {
  fail((error as Error).message);
}

note(`reversals: Codex replaced, narrowed or gave up a claim in ${withReversals} of the ${withRecord} pairs that kept the record; every judge saw it in ${reversalsSeen} of them`);

const line = (name: string, value: number, tail = '') => process.stdout.write(`${name.padEnd(25)}${value}${tail}\n`);
line('ab.pairs', pairs);
line('ab.parleyPreferredOrTied', preferredOrTied);
line('ab.parleyStronglyWorse', stronglyWorse);
line('ab.answersWithIds', withIds, '   (final parley answers holding a point id, a file path or a cut-off line)');
