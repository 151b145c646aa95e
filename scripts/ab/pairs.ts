import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The layout of one A/B pair: the same question answered once per arm, then judged blind.
 *
 *   <pair>/question.md                 what the user asked (both arms, the judge)
 *   <pair>/<arm>/                      the arm's folder: its relay's NNN.prompt.md / NNN.reply.md,
 *                                      calls.jsonl, answer.md and times.json (the orchestrator's)
 *   <pair>/judge/packet.md, key.json   what judge-packet.ts writes (packet-2.md, key-2.json: --swap)
 *   <pair>/judge/verdict.json          what the judge writes (verdict-2.json: the second judge)
 */
export const ARMS = ['parley', 'plain'] as const;
export type Arm = (typeof ARMS)[number];

const repoRoot = resolve(import.meta.dirname, '../..');
/** The questions (question.md, consultee-brief.md, judge-notes.md per folder). */
export const QUESTIONS_DIR = join(repoRoot, 'test/ab/questions');
/** Kept real pairs: what ab:summary and ab:costs read by default. */
export const PAIRS_DIR = join(repoRoot, 'test/ab/pairs');

export const armDir = (pair: string, arm: Arm): string => join(pair, arm);
export const judgeDir = (pair: string): string => join(pair, 'judge');

/** The judges: the first one's files, and the second one's (labels swapped). */
export const JUDGES = [
  { packet: 'packet.md', key: 'key.json', verdict: 'verdict.json' },
  { packet: 'packet-2.md', key: 'key-2.json', verdict: 'verdict-2.json' },
] as const;

/** The pair folders under a root: every folder holding a question.md, by name. */
export function listPairs(root: string): string[] {
  if (!existsSync(root)) throw new Error(`no pairs folder at ${root}`);
  return readdirSync(root)
    .map((name) => join(root, name))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, 'question.md')))
    .sort();
}

/** A file the pair must have, read whole; a clear error naming it when it is missing. */
export function readPairFile(file: string, what: string): string {
  if (!existsSync(file)) throw new Error(`${file} is missing: ${what}`);
  return readFileSync(file, 'utf8');
}

export const Times = z.object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) }).strict();

/** An orchestrator's wall time in ms (times.json: ISO start and end), or undefined without the file. */
export function wallMs(dir: string): number | undefined {
  const file = join(dir, 'times.json');
  if (!existsSync(file)) return undefined;
  const parsed = Times.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: expected {"start": "<ISO time>", "end": "<ISO time>"}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ')}`);
  const ms = Date.parse(parsed.data.end) - Date.parse(parsed.data.start);
  if (ms < 0) throw new Error(`${file}: end is before start`);
  return ms;
}
