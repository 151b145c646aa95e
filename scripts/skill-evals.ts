/**
 * Runs skill/evals/cases.json against a real, logged-in Claude Code with this repository as a
 * plugin, and grades the first parley tool call of each case (see skill/evals/README.md).
 * Every parley tool is left unapproved, so each call is refused: nothing reaches Codex (delib_start
 * consults at once) or starts a run, and the decision is still visible in the transcript.
 *
 *   node --import tsx scripts/skill-evals.ts [case-id ...]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';

const repoRoot = path.resolve(import.meta.dirname, '..');
const claudeBin = path.join(repoRoot, 'node_modules/.bin/claude');

interface Expectation {
  invoke: boolean;
  protocol?: 'argumentation' | 'dialogic' | 'debate';
  mode?: string;
  framing?: string;
  /** Strings the `constraints` given to delib_start must contain (hard limits the user stated). */
  constraintsMention?: string[];
  /** Strings the `material` must contain (what is under review, open to challenge). */
  materialMention?: string[];
  /** Strings the `constraints` must not contain: under review, so never an unchallengeable user fact. */
  constraintsOmit?: string[];
}
interface EvalCase {
  id: string;
  request: string;
  expect: Expectation;
}
interface ToolUse {
  name: string;
  input: Record<string, unknown>;
}

/** The parley calls the model made, in order, read from the stream-json transcript. */
export function parleyCalls(streamJson: string): ToolUse[] {
  const calls: ToolUse[] = [];
  for (const line of streamJson.split('\n')) {
    if (!line.trim()) continue;
    let event: { type?: string; message?: { content?: { type?: string; name?: string; input?: Record<string, unknown> }[] } };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event.type !== 'assistant') continue;
    for (const block of event.message?.content ?? []) {
      const tool = /^mcp__(?:plugin_parley_parley|parley)__(\w+)$/.exec(block.name ?? '')?.[1];
      if (block.type === 'tool_use' && tool) calls.push({ name: tool, input: block.input ?? {} });
    }
  }
  return calls;
}

/** Why the calls miss the expectation; empty when the case passes. */
export function grade(expectation: Expectation, calls: ToolUse[]): string[] {
  const start = calls.find((call) => call.name === 'delib_start' || call.name === 'run_start');
  if (!expectation.invoke) return start ? [`expected no deliberation, got ${start.name}`] : [];
  if (!start) return ['expected a deliberation, got no delib_start or run_start'];
  const problems: string[] = [];
  if (expectation.protocol === 'argumentation') {
    if (start.name !== 'delib_start') return [`expected delib_start, got ${start.name}`];
    // The server's defaults: a start without them gets these.
    const mode = start.input.mode ?? 'minimal';
    const framing = start.input.framing ?? 'consultee-proposes';
    if (expectation.mode && mode !== expectation.mode) problems.push(`mode ${String(mode)}, expected ${expectation.mode}`);
    if (expectation.framing && framing !== expectation.framing) problems.push(`framing ${String(framing)}, expected ${expectation.framing}`);
    const constraints = JSON.stringify(start.input.constraints ?? []).toLowerCase();
    const material = (typeof start.input.material === 'string' ? start.input.material : '').toLowerCase();
    const has = (text: string, needle: string) => text.includes(needle.toLowerCase());
    for (const needle of expectation.constraintsMention ?? []) if (!has(constraints, needle)) problems.push(`constraints lack "${needle}"`);
    for (const needle of expectation.materialMention ?? []) if (!has(material, needle)) problems.push(`material lacks "${needle}"`);
    for (const needle of expectation.constraintsOmit ?? []) if (has(constraints, needle)) problems.push(`constraints hold "${needle}", which is under review (material)`);
  } else {
    if (start.name !== 'run_start') return [`expected run_start, got ${start.name}`];
    if (start.input.protocol !== expectation.protocol) problems.push(`protocol ${String(start.input.protocol)}, expected ${expectation.protocol}`);
  }
  return problems;
}

async function runCase(evalCase: EvalCase): Promise<string[]> {
  const cwd = await mkdtemp(path.join(tmpdir(), 'parley-eval-'));
  try {
    const args = ['-p', evalCase.request, '--plugin-dir', repoRoot, '--output-format', 'stream-json', '--verbose', '--max-turns', process.env.PARLEY_EVAL_MAX_TURNS ?? '6', '--allowedTools', 'Skill,Read'];
    if (process.env.PARLEY_EVAL_MODEL) args.push('--model', process.env.PARLEY_EVAL_MODEL);
    const run = await execa(claudeBin, args, { cwd, reject: false, input: '', timeout: 300_000 });
    return grade(evalCase.expect, parleyCalls(run.stdout));
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const file = JSON.parse(await readFile(path.join(repoRoot, 'skill/evals/cases.json'), 'utf8')) as { cases: EvalCase[] };
  const wanted = new Set(process.argv.slice(2));
  const cases = file.cases.filter((c) => wanted.size === 0 || wanted.has(c.id));
  let passed = 0;
  for (const evalCase of cases) {
    const problems = await runCase(evalCase);
    if (problems.length === 0) passed++;
    process.stdout.write(`${problems.length ? 'FAIL' : 'pass'}  ${evalCase.id}${problems.length ? `: ${problems.join('; ')}` : ''}\n`);
  }
  process.stdout.write(`${passed}/${cases.length} passed\n`);
  process.exitCode = passed === cases.length ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
