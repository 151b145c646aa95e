/**
 * Keeps a finished pair as fixtures: the question, each arm's transcript (the relay's prompts and
 * replies, calls.jsonl, transcript.jsonl, parley's deliberation record), the minds' answers, times
 * and notes, and the judges' packets, keys and verdicts. Left out: env.json, the socket, the
 * server's log (machine paths, nothing the measures read).
 *
 *   node --import tsx scripts/ab/keep-pair.ts --pair <dir> [--name <YYYY-MM-DD-question>] [--to <folder>]
 *
 * --to defaults to test/ab/pairs, where ab:summary and ab:costs read. Refuses a name already kept.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fail, say } from '../real-minds/common.js';
import { ARMS, JUDGES, PAIRS_DIR, armDir, judgeDir } from './pairs.js';

const ARM_FILES = /^(?:\d+\.(?:prompt\.md|reply\.md|abandoned\.md|schema\.json)|calls\.jsonl|transcript\.jsonl|answer\.md|times\.json|notes\.md|consultee-notes\.md)$/;
const RECORD_FILES = /^d-[\w-]+\.(?:json|audit\.jsonl|report\.md|decision\.md)$/;
const JUDGE_FILES = new Set<string>(JUDGES.flatMap((j) => [j.packet, j.key, j.verdict]));

const { values } = parseArgs({ options: { pair: { type: 'string' }, name: { type: 'string' }, to: { type: 'string' } } });
if (!values.pair) fail('usage: keep-pair.ts --pair <dir> [--name <YYYY-MM-DD-question>] [--to <folder>]');
const pair = resolve(values.pair);
if (!existsSync(join(pair, 'question.md'))) fail(`${pair} is not a pair folder (no question.md)`);
const name = values.name ?? `${new Date().toISOString().slice(0, 10)}-${basename(pair)}`;
if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) fail(`--name must be kebab-case, not ${JSON.stringify(name)}`);
const kept = join(resolve(values.to ?? PAIRS_DIR), name);
if (existsSync(kept)) fail(`${kept} exists: give another --name`);

const copied: string[] = [];
function copy(from: string, to: string, keep: (file: string) => boolean): void {
  if (!existsSync(from)) return;
  for (const file of readdirSync(from).filter(keep).sort()) {
    mkdirSync(to, { recursive: true });
    copyFileSync(join(from, file), join(to, file));
    copied.push(join(to, file));
  }
}

copy(pair, kept, (file) => file === 'question.md');
for (const arm of ARMS) {
  copy(armDir(pair, arm), join(kept, arm), (file) => ARM_FILES.test(file));
  copy(join(armDir(pair, arm), 'state/deliberations'), join(kept, arm, 'record'), (file) => RECORD_FILES.test(file));
}
copy(judgeDir(pair), join(kept, 'judge'), (file) => JUDGE_FILES.has(file));
say(`kept ${copied.length} files in ${kept}`);
