/**
 * Checks a judge's verdict file against the verdict schema (scripts/ab/verdict.ts): prints "ok", or
 * every problem by its path and exits 2.
 *
 *   node --import tsx scripts/ab/check-verdict.ts --file <pair>/judge/verdict.json
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, say } from '../real-minds/common.js';
import { readChecked, Verdict } from './verdict.js';

const { values } = parseArgs({ options: { file: { type: 'string' } } });
if (!values.file) fail('usage: check-verdict.ts --file <verdict.json>');
try {
  readChecked(resolve(values.file), Verdict, 'verdict');
  say('ok');
} catch (error) {
  fail((error as Error).message);
}
