/**
 * What a real-minds deliberation cost: tool calls (calls.jsonl) and Codex turns (NNN.prompt.md).
 *
 *   node --import tsx scripts/real-minds/summary.ts --dir <folder>
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cliArgs, say, type CallRecord } from './common.js';

const { dir } = cliArgs();
const logFile = join(dir, 'calls.jsonl');
const records = existsSync(logFile)
  ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as CallRecord)
  : [];
const calls = records.filter((r) => r.tool !== 'tools/list');
const listings = records.filter((r) => r.tool === 'tools/list');
const sum = (rs: CallRecord[], key: 'argsBytes' | 'resultBytes' | 'ms') => rs.reduce((total, r) => total + r[key], 0);

say(`tool calls:          ${calls.length} (${calls.filter((r) => r.isError).length} errors)`);
say(`result bytes:        ${sum(calls, 'resultBytes')} (args bytes ${sum(calls, 'argsBytes')}; ${(sum(calls, 'ms') / 1000).toFixed(1)} s in calls)`);
for (const tool of [...new Set(calls.map((r) => r.tool))].sort()) {
  const mine = calls.filter((r) => r.tool === tool);
  say(`  ${tool}: ${mine.length} call(s), ${sum(mine, 'resultBytes')} result bytes, ${mine.filter((r) => r.isError).length} errors`);
}
if (listings.length) say(`tools/list:          ${listings.length} (${listings[listings.length - 1]?.resultBytes} bytes the last time)`);

const files = readdirSync(dir);
const bytes = (suffix: string) => files.filter((f) => /^\d+\./.test(f) && f.endsWith(suffix)).reduce((total, f) => total + statSync(join(dir, f)).size, 0);
const turns = files.filter((f) => /^\d+\.prompt\.md$/.test(f)).length;
say(`codex turns:         ${turns} (prompt bytes ${bytes('.prompt.md')}, reply bytes ${bytes('.reply.md')}, abandoned ${files.filter((f) => f.endsWith('.abandoned.md')).length})`);
