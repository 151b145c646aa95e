import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CallRecord } from './common.js';

/** What one real-minds folder cost: its tool calls (calls.jsonl) and its Codex turns (the relay's NNN.* files). */
export interface SessionCosts {
  /** Tool calls, tools/list left out. */
  calls: CallRecord[];
  /** tools/list requests. */
  listings: CallRecord[];
  codexTurns: number;
  promptBytes: number;
  replyBytes: number;
  abandoned: number;
}

export function sessionCosts(dir: string): SessionCosts {
  const logFile = join(dir, 'calls.jsonl');
  const records = existsSync(logFile)
    ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallRecord)
    : [];
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const bytes = (suffix: string) => files.filter((f) => /^\d+\./.test(f) && f.endsWith(suffix)).reduce((total, f) => total + statSync(join(dir, f)).size, 0);
  return {
    calls: records.filter((r) => r.tool !== 'tools/list'),
    listings: records.filter((r) => r.tool === 'tools/list'),
    codexTurns: files.filter((f) => /^\d+\.prompt\.md$/.test(f)).length,
    promptBytes: bytes('.prompt.md'),
    replyBytes: bytes('.reply.md'),
    abandoned: files.filter((f) => /^\d+\.abandoned\.md$/.test(f)).length,
  };
}

export const total = (records: CallRecord[], key: 'argsBytes' | 'resultBytes' | 'ms'): number => records.reduce((sum, r) => sum + r[key], 0);
