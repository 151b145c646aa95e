/**
 * Runs a debate or a dialogic run whose models are real minds behind relay-chat.ts, then asks each
 * mind what it found unclear. The folder it leaves is a trial, ready to keep as test fixtures
 * (config.json, output.json, one folder per model with its prompts, replies and debrief).
 *
 *   node --import tsx scripts/real-minds/run-chat.ts --dir <relay folder> --protocol debate|dialogic --config <file.json>
 *
 * In the config, a model spec `relay:<model>` is the relay's `openai-compatible:<base-url>#<model>`.
 * Calls wait up to 35 min for a mind unless the config says otherwise (debate timeoutMs, dialogic callTimeoutMs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyzeDebate, runDebateToFile } from '../../protocols/debate/index.js';
import { runDialogicToFile } from '../../protocols/dialogic/index.js';
import { writeFileAtomic } from '../../state/atomic-write.js';
import { nodeFs } from '../../state/fs-seam.js';
import { cliArgs, fail, say } from './common.js';

const MIND_TIMEOUT_MS = 35 * 60_000;
const DEBRIEF = [
  'The session is over; thank you. Looking back at every prompt you received in it: what was unclear, ambiguous or missing,',
  'what did you have to guess, and what would you change so that your answers could better reflect your actual judgment?',
  'Answer in your own words, as plain text (not JSON).',
].join(' ');

const { dir, values } = cliArgs({ protocol: { type: 'string' }, config: { type: 'string' } });
const protocol = values.protocol;
if (protocol !== 'debate' && protocol !== 'dialogic') fail('--protocol debate|dialogic is required');
if (!values.config) fail('--config <file.json> is required');
const baseUrl = readFileSync(join(dir, 'base-url'), 'utf8').trim();
const portable = JSON.parse(await readFile(values.config, 'utf8')) as Record<string, unknown>;

/** `relay:<model>` -> the relay's spec, anywhere in the config. */
const live = (value: unknown): unknown =>
  typeof value === 'string' && value.startsWith('relay:')
    ? `openai-compatible:${baseUrl}#${value.slice('relay:'.length)}`
    : Array.isArray(value)
      ? value.map(live)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, live(item)]))
        : value;

await writeFileAtomic(nodeFs, join(dir, 'config.json'), `${JSON.stringify(portable, null, 2)}\n`);
const outPath = join(dir, 'output.json');
const config = live(portable) as Record<string, unknown>;
if (protocol === 'debate') {
  const transcript = await runDebateToFile({ timeoutMs: MIND_TIMEOUT_MS, ...config } as never, { outPath, onProgress: (update) => say(update.message) });
  const analysis = analyzeDebate(transcript);
  const turns = transcript.rounds.flatMap((round) => round.turns);
  say(`debate: ${transcript.stop.roundsRun} round(s), stopped by ${transcript.stop.reason}; ${turns.filter((turn) => turn.status === 'ok').length}/${turns.length} valid turns`);
  say(`reference edges (agent to agent, summed): ${analysis.graph.edges.filter((edge) => edge.kind === 'agent').reduce((sum, edge) => sum + edge.count, 0)}`);
} else {
  const output = await runDialogicToFile({ callTimeoutMs: MIND_TIMEOUT_MS, ...config } as never, { outPath, onProgress: (update) => say(update.message) });
  say(`dialogic: ${output.cyclesCompleted} cycle(s), stopped by ${output.stopReason}; ${output.calls.sent} calls; ${output.run.submitted_terms.length} agreed, ${output.run.dropped_terms.length} dropped`);
}
say(`calls per mind: ${minds().map((model) => `${model} ${readdirSync(join(dir, model)).filter((name) => /^\d+\.prompt\.md$/.test(name)).length}`).join(', ')}`);

// The debrief: the same question to every mind, answered in its folder like any prompt.
for (const model of minds()) await writeFileAtomic(nodeFs, join(dir, model, 'debrief.prompt.md'), `# User\n\n${DEBRIEF}\n`);
say(`debrief: waiting for debrief.reply.md in ${minds().join(', ')}`);
while (minds().some((model) => !existsSync(join(dir, model, 'debrief.reply.md')))) await new Promise((ready) => setTimeout(ready, 500));
// A mind's words reach the terminal quoted and escaped.
for (const model of minds()) say(`${model}: ${JSON.stringify(readFileSync(join(dir, model, 'debrief.reply.md'), 'utf8').trim())}`);

function minds(): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(dir, entry.name)).some((name) => /^\d+\.prompt\.md$/.test(name)))
    .map((entry) => entry.name)
    .sort();
}
