import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A stand-in for the codex binary that starts what Codex 0.169's sandbox starts (`bwrap ... codex
 * --codex-run-as-fs-helper`): a helper in codex's own session, which starts another in a session of
 * its own, with no environment (so no call tag), ignoring SIGTERM; the first ends when codex does,
 * so the second is left with no parent that leads to it. The real binary leaves such helpers only
 * when a kill meets them starting up, which no test can time; this one leaves one every time.
 *
 * It answers after `answerAfterMs` as `codex exec --json` does (a thread, an agent message, usage),
 * or never when `answerAfterMs` is undefined. `marker` is in the escaping helper's command line.
 */
export async function writeEscapingCodex(dir: string, options: { marker: string; answerAfterMs?: number }): Promise<string> {
  const inner = "process.on('SIGTERM', () => {}); setInterval(() => {}, 60000);";
  const outer = [
    "const { spawn } = require('node:child_process');",
    `spawn(process.execPath, ['-e', ${JSON.stringify(inner)}, '--', ${JSON.stringify(options.marker)}], { detached: true, stdio: 'ignore', env: {} });`,
    "process.stdin.on('end', () => process.exit(0)).on('error', () => process.exit(0)).resume();",
  ].join(' ');
  const answer = [
    { type: 'thread.started', thread_id: '0199a7f0-0000-7000-8000-000000000001' },
    { type: 'turn.started' },
    { type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'done' } },
    { type: 'turn.completed', usage: { input_tokens: 1, cached_input_tokens: 0, output_tokens: 1, reasoning_output_tokens: 0 } },
  ];
  const source = [
    "import { spawn } from 'node:child_process';",
    `spawn(process.execPath, ['-e', ${JSON.stringify(outer)}], { stdio: ['pipe', 'ignore', 'ignore'], env: {} });`,
    'process.stdin.resume();',
    options.answerAfterMs === undefined
      ? 'setInterval(() => {}, 60000);'
      : `setTimeout(() => { process.stdout.write(${JSON.stringify(answer.map((event) => JSON.stringify(event)).join('\n') + '\n')}, () => process.exit(0)); }, ${options.answerAfterMs});`,
  ].join('\n');
  const path = join(dir, 'codex.mjs');
  await writeFile(path, source, { mode: 0o755 });
  return path;
}
