import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { analyzeDebate, runDebateToFile } from '../protocols/debate/index.js';
import { runDialogicToFile } from '../protocols/dialogic/index.js';
import { loadReportSource, majorityText, reportHtml } from '../protocols/report/index.js';
import { redact } from '../schemas/secrets.js';
import { resolveCodexPath } from '../wrapper/codex/index.js';
import { startDemoModel, type DemoModel } from '../wrapper/demo-model/server.js';
import { runDemoDeliberation } from './demo-deliberation.js';
import { runWatched } from './model-calls.js';
import { portNumber } from './option-parsers.js';
import { parleyCommand, shellWord } from './invocation.js';
import { reportFailure, runInterruptible } from './shared.js';

const MARKER = '.parley-demo';
/** Everything the demo writes into --out: a rerun replaces these and nothing else. */
const WRITES = [MARKER, 'debate.json', 'debate.run', 'debate.html', 'dialogic.json', 'dialogic.run', 'dialogic.html', 'argumentation', 'argumentation.html'];
const DEBATE_QUESTION = 'Should a five-person startup split its monolith into microservices this year?';

interface DemoOptions {
  out: string;
  serve?: boolean;
  port?: number;
}

/** `parley demo`: parley at work with no key and no network, against its local demo model. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('see parley work with no keys and no network: a debate, a dialogic run and an argumentation deliberation against a local demo model, with their HTML reports')
    .option('--out <dir>', 'folder for the runs and reports (a rerun replaces what the demo wrote there)', 'parley-demo')
    .option('--serve', 'only start the demo model and keep it running until Ctrl-C: an openai-compatible endpoint for trying debates and sweeps')
    .option('--port <n>', 'the demo model\'s port on 127.0.0.1 (default: a free one)', portNumber)
    .action(async (options: DemoOptions) => {
      if (options.serve) await reportFailure('demo', () => serve(options.port));
      else await runInterruptible('demo', (signal) => runDemo(options, signal));
    });
}

async function listen(port: number | undefined): Promise<DemoModel> {
  try {
    return await startDemoModel({ ...(port !== undefined && { port }) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new Error(`port ${port} on 127.0.0.1 is in use: choose another with --port, or leave --port out for a free one`);
    throw error;
  }
}

const NOTICE = "It is canned text chosen by rules, not a language model: the runs show how parley works, not what a model thinks.";

async function serve(port: number | undefined): Promise<void> {
  const model = await listen(port);
  const spec = (name: string) => `openai-compatible:${model.baseUrl}#${name}`;
  const parley = parleyCommand();
  process.stdout.write(
    [
      `parley's demo model is listening on ${model.baseUrl} (127.0.0.1 only; Ctrl-C stops it).`,
      NOTICE,
      '',
      'Use it as any openai-compatible model, e.g. in another terminal:',
      `  ${parley} debate "Should we rewrite the billing service in Rust?" --options yes,no --rounds 2 \\`,
      `    --agent ${spec('demo-optimist')} --agent ${spec('demo-skeptic')} --agent ${spec('demo-pragmatist')}`,
      `  ${parley} dialogic --model-a ${spec('demo-a')} --model-b ${spec('demo-b')}`,
      'or in a sweep matrix:',
      `  agents: [[{ model: "${spec('demo-optimist')}" }, { model: "${spec('demo-skeptic')}" }]]`,
      '',
    ].join('\n'),
  );
  await new Promise<void>((stop) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => stop());
  });
  await model.close();
  process.stdout.write(`stopped after ${model.served()} request(s)\n`);
}

/** The --out folder, empty or a previous demo's (whose files are removed); any other content is refused. */
async function prepareOut(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  if (entries.length && !entries.includes(MARKER)) throw new Error(`${dir} already holds files that are not a parley demo's: give --out a new or empty folder`);
  for (const name of entries.filter((entry) => WRITES.includes(entry))) await rm(join(dir, name), { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, MARKER), 'Written by `parley demo`: running it again with --out this folder replaces the demo\'s files here.\n');
}

/** A path as the user can type it: relative to the working folder when inside it. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

async function writeReport(source: string, target: string): Promise<string> {
  await writeFile(target, redact(await reportHtml(await loadReportSource(source))));
  return target;
}

interface Outcome {
  lines: string[];
  reports: string[];
}

async function runDemo(options: DemoOptions, signal: AbortSignal): Promise<void> {
  const started = performance.now();
  // Commands to try next are printed as this demo was started: `node plugin/parley-server.mjs` in a clone.
  const parley = parleyCommand();
  const dir = resolve(options.out);
  await prepareOut(dir);
  const model = await listen(options.port);
  let outcome: Outcome;
  try {
    outcome = await demoRuns(model, dir, signal);
  } catch (error) {
    // Stopped by a signal: the runs are cut short, and a rerun starts over rather than resumes.
    if (signal.aborted) throw new Error(`${String((signal.reason as Error)?.message ?? signal.reason).replace(/:.*$/, '')}: the demo stopped and left nothing running; run ${parleyCommand()} demo again to start over`);
    throw error;
  } finally {
    await model.close();
  }
  process.stdout.write(
    [
      `parley demo: the runs below were answered by parley's local demo model. ${NOTICE}`,
      '',
      ...outcome.lines,
      '',
      'Reports (open them in a browser):',
      ...outcome.reports.map((path) => `  ${shown(path)}`),
      `Runs, audit logs and state files are beside them in ${shown(dir)}/ (${((performance.now() - started) / 1000).toFixed(1)} s).`,
      '',
      'What to try next:',
      ...columns([
        [`${parley} report ${shellWord(shown(join(dir, 'debate.json')))}`, 'the debate as a Markdown summary'],
        [`${parley} demo --serve --port 8700`, 'keep the demo model running: an openai-compatible endpoint for debate, dialogic and sweep'],
        [`${parley} doctor --model openai:gpt-4.1`, "check a real model's key and endpoint, then give it to debate --agent"],
        [`${parley} --help`, 'every command; the README covers the Claude Code plugin and the MCP tools'],
      ]),
      '',
    ].join('\n'),
  );
}

/** The three runs, each through the code a real run of it takes, and their reports. */
async function demoRuns(model: DemoModel, dir: string, signal: AbortSignal): Promise<Outcome> {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const spec = (name: string) => `openai-compatible:${model.baseUrl}#${name}`;
  const byName = (model: string) => model.slice(model.lastIndexOf('#') + 1);
  const lines: string[] = [];
  const reports: string[] = [];
  say(`parley demo: every model call goes to parley's local demo model on ${model.baseUrl}. ${NOTICE}`);

  const agents = [
    { model: spec('demo-optimist'), role: 'argue for the change where the evidence allows' },
    { model: spec('demo-skeptic'), role: 'look hard for costs and risks' },
    { model: spec('demo-pragmatist'), role: 'weigh both sides and follow the stronger case' },
  ];
  const judge = spec('demo-judge');
  const roles = [...agents.map((agent, i) => ({ label: `agent ${i + 1} (${agent.model})`, spec: agent.model })), { label: `CRIT and RCA judge (${judge})`, spec: judge }];
  say('debate: 3 agents, up to 3 rounds, CRIT and RCA judges');
  const transcript = await runWatched(roles, byName, (watch) =>
    runDebateToFile({ question: DEBATE_QUESTION, options: ['yes', 'no'], rounds: 3, agents, crit: { judge, variant: 'both' }, rca: { judge } }, { outPath: join(dir, 'debate.json'), signal, ...watch }),
  );
  const s = analyzeDebate(transcript).measures.summary;
  const final = majorityText({ majorityAnswer: s.finalMajorityAnswer, tiedAnswers: s.finalTiedAnswers });
  lines.push(`debate          ${s.agentCount} agents, ${s.roundsRun} rounds, stopped by ${s.stopReason}; final answer "${final}", ${s.howManyAgentsChanged} agent(s) changed their answer`);
  reports.push(await writeReport(join(dir, 'debate.json'), join(dir, 'debate.html')));

  say('dialogic: two models build a shared vocabulary');
  const pair = [
    { label: `model A (${spec('demo-a')})`, spec: spec('demo-a') },
    { label: `model B (${spec('demo-b')})`, spec: spec('demo-b') },
  ];
  const dialogic = await runWatched(pair, byName, (watch) => runDialogicToFile({ modelA: spec('demo-a'), modelB: spec('demo-b') }, { outPath: join(dir, 'dialogic.json'), signal, ...watch }));
  const { run } = dialogic;
  const proposed = run.submitted_terms.length + run.dropped_terms.length;
  lines.push(`dialogic        ${proposed} terms proposed, ${run.submitted_terms.length} agreed, ${run.dropped_terms.length} dropped; stopped by ${dialogic.stopReason.replace(/_/g, ' ')} after ${dialogic.cyclesCompleted} cycle(s)`);
  reports.push(await writeReport(join(dir, 'dialogic.json'), join(dir, 'dialogic.html')));

  const codexMissing = whyNoCodex();
  if (codexMissing) {
    lines.push(`argumentation   skipped: ${codexMissing}. The consultee is Codex CLI: install it (npm install -g @openai/codex, or set PARLEY_CODEX_PATH) and run ${parleyCommand()} demo again; the demo needs no Codex login.`);
    return { lines, reports };
  }
  say('argumentation: the real Codex CLI, pointed at the demo model, is consulted; a scripted orchestrator judges');
  const deliberation = await runDemoDeliberation({ baseUrl: model.baseUrl, dir: join(dir, 'argumentation'), signal, say });
  const b = deliberation.buckets;
  lines.push(`argumentation   ${deliberation.iterations} iterations, ${deliberation.codexTurns} Codex turns; ${b.agreed} agreed, ${b.dismissed} dismissed, ${b.unresolved} unresolved`);
  reports.push(await writeReport(deliberation.statePath, join(dir, 'argumentation.html')));
  return { lines, reports };
}

const columns = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([command]) => command.length));
  return rows.map(([command, what]) => `  ${command.padEnd(width)}  ${what}`);
};

/** Why Codex cannot be run from here (its binary is missing), or undefined. */
function whyNoCodex(): string | undefined {
  try {
    resolveCodexPath();
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/: install it .*$/, '');
  }
}
