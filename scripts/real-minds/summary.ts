/**
 * What a real-minds deliberation cost: tool calls (calls.jsonl) and Codex turns (NNN.prompt.md).
 *
 *   node --import tsx scripts/real-minds/summary.ts --dir <folder>
 */
import { cliArgs, say } from './common.js';
import { sessionCosts, total } from './session-costs.js';

const { dir } = cliArgs();
const { calls, listings, codexTurns, promptBytes, replyBytes, abandoned } = sessionCosts(dir);

say(`tool calls:          ${calls.length} (${calls.filter((r) => r.isError).length} errors)`);
say(`result bytes:        ${total(calls, 'resultBytes')} (args bytes ${total(calls, 'argsBytes')}; ${(total(calls, 'ms') / 1000).toFixed(1)} s in calls)`);
for (const tool of [...new Set(calls.map((r) => r.tool))].sort()) {
  const mine = calls.filter((r) => r.tool === tool);
  say(`  ${tool}: ${mine.length} call(s), ${total(mine, 'resultBytes')} result bytes, ${mine.filter((r) => r.isError).length} errors`);
}
if (listings.length) say(`tools/list:          ${listings.length} (${listings[listings.length - 1]?.resultBytes} bytes the last time)`);
say(`codex turns:         ${codexTurns} (prompt bytes ${promptBytes}, reply bytes ${replyBytes}, abandoned ${abandoned})`);
