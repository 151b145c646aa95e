/**
 * What each pair cost, parley's arm beside the plain one: tool calls (a plain consult is one call),
 * refusals and errors, Codex turns, result bytes the orchestrator read, and its wall time.
 *
 *   node --import tsx scripts/ab/costs.ts [--root <pairs folder>]   (npm run -s ab:costs; default test/ab/pairs)
 */
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, say } from '../real-minds/common.js';
import { sessionCosts, total } from '../real-minds/session-costs.js';
import { ARMS, PAIRS_DIR, armDir, listPairs, wallMs } from './pairs.js';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? PAIRS_DIR);

const COLUMNS: [string, number][] = [['arm', 8], ['calls', 6], ['refusals', 9], ['codex turns', 12], ['result bytes', 13], ['wall time', 10]];
const row = (cells: string[]) => `  ${cells.map((cell, i) => (i === 0 ? cell.padEnd(COLUMNS[i]![1]) : cell.padStart(COLUMNS[i]![1]))).join(' ')}`;
const minutes = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 60_000).toFixed(1)} min`);

try {
  const pairs = listPairs(root);
  if (!pairs.length) say(`no pairs in ${root}`);
  for (const pair of pairs) {
    say(basename(pair));
    say(row(COLUMNS.map(([name]) => name)));
    for (const arm of ARMS) {
      const dir = armDir(pair, arm);
      const { calls, codexTurns } = sessionCosts(dir);
      say(row([arm, String(calls.length), String(calls.filter((r) => r.isError).length), String(codexTurns), String(total(calls, 'resultBytes')), minutes(wallMs(dir))]));
    }
  }
} catch (error) {
  fail((error as Error).message);
}
