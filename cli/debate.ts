import { readFile } from 'node:fs/promises';
import { Command, Option } from 'commander';
import { analyzeDebate, exportGraph, measuresToCsv, parseDebateConfig, runDebateToFile } from '../protocols/debate/index.js';
import { resolveAgents } from '../protocols/debate/agents.js';
import type { DebateConfigInput } from '../schemas/debate.js';
import { runWatched, type CallLabeler, type ModelRole } from './model-calls.js';
import { freshRunHint, reportFailure, runInterruptible } from './shared.js';
import { finiteNumber, positiveInteger } from './option-parsers.js';
import { printOut } from './terminal.js';

const FORMATS = ['json', 'csv', 'dot', 'mermaid', 'table'] as const;
type Format = (typeof FORMATS)[number];

/** `parley debate "question" --agent ... --out f.json` runs a debate; `parley debate analyze f.json` measures one. */
export function registerDebateCommand(program: Command): void {
  const debate = program
    .command('debate')
    .description('run a multi-agent debate (resumes when its run folder already exists)')
    .argument('[question]', 'the question or task under debate')
    .option('--agent <spec>', 'a debater, e.g. openai:gpt-4.1 or codex:gpt-5.2 (repeat, 2 or more)', collect, [])
    .option('--role <text>', 'role or stance of the agent at the same position (repeatable)', collect, [])
    .option('--rounds <n>', 'rounds to run', positiveInteger, 3)
    .option('--options <list>', 'comma-separated answer options')
    .addOption(new Option('--answer-kind <kind>', 'agents answer with one option, or with a distribution over the options').choices(['option', 'distribution']))
    .option('--ground-truth <answer>', 'the right answer, for the measures only (never shown to a model)')
    .option('--crit <judge>', 'score each round with CRIT using this judge model')
    .addOption(new Option('--crit-variant <variant>', 'CRIT scoring').choices(['gamma', 'pillars', 'both']).default('both'))
    .option('--rca <judge>', 'judge trace-output consistency each round with this model')
    .option('--pid', 'steer the tone with the PID controller on contentiousness (needs --crit)')
    .option('--no-anonymise', 'show agents by model name instead of "Agent n"')
    .addOption(new Option('--role-visibility <who>', 'who sees the roles given with --role: the other agents and the judges, the judges only, or nobody else').choices(['all', 'judges', 'none']))
    .option('--temperature <t>', 'sampling temperature', finiteNumber)
    .option('--config <file>', 'a full debate config as JSON (flags given override it)')
    .option('--out <file>', 'where the transcript JSON goes', 'debate.json')
    .option('--dir <folder>', 'run folder for the audit log (default: <out without its extension>.run, e.g. debate.run)')
    .action(async (question: string | undefined, options: RunOptions) => {
      await runInterruptible('debate', (signal) => runCommand(question, options, signal));
    });

  debate
    .command('analyze <file>')
    .description('the debate graph and measures of a saved transcript')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('json'))
    .addOption(new Option('--table <table>', 'which CSV table').choices(['rounds', 'agents']).default('rounds'))
    .action(async (file: string, options: { format: Format; table: 'rounds' | 'agents' }) => {
      await reportFailure('debate', async () => {
        const analysis = analyzeDebate(JSON.parse(await readFile(file, 'utf8')));
        const text =
          options.format === 'csv'
            ? measuresToCsv(analysis, options.table)
            : options.format === 'table'
              ? analysis.table
              : options.format === 'json'
                ? JSON.stringify({ measures: analysis.measures, graph: analysis.graph }, null, 2) + '\n'
                : exportGraph(analysis, options.format);
        printOut(text);
      });
    });
}

interface RunOptions {
  agent: string[];
  role: string[];
  rounds: number;
  options?: string;
  groundTruth?: string;
  crit?: string;
  critVariant: 'gamma' | 'pillars' | 'both';
  rca?: string;
  pid?: boolean;
  answerKind?: 'option' | 'distribution';
  anonymise: boolean;
  roleVisibility?: 'all' | 'judges' | 'none';
  temperature?: number;
  config?: string;
  out: string;
  dir?: string;
}

async function buildConfig(question: string | undefined, options: RunOptions): Promise<DebateConfigInput> {
  const base = (options.config ? JSON.parse(await readFile(options.config, 'utf8')) : {}) as Partial<DebateConfigInput>;
  const agents = options.agent.length
    ? options.agent.map((model, index) => ({ model, ...(options.role[index] && { role: options.role[index] }) }))
    : base.agents;
  const finalQuestion = question ?? base.question;
  if (!finalQuestion) throw new Error('give the question: parley debate "<question>" --agent <spec> --agent <spec>');
  if (!agents || agents.length < 2) throw new Error('give at least two debaters with --agent <spec>');
  return {
    ...base,
    question: finalQuestion,
    agents,
    rounds: options.rounds,
    anonymise: options.anonymise,
    ...(options.options && { options: options.options.split(',').map((option) => option.trim()).filter(Boolean) }),
    ...(options.groundTruth && { groundTruth: options.groundTruth }),
    ...(options.crit && { crit: { judge: options.crit, variant: options.critVariant } }),
    ...(options.rca && { rca: { judge: options.rca } }),
    ...(options.pid && { pid: base.pid ?? {} }),
    ...(options.answerKind && { answerKind: options.answerKind }),
    ...(options.roleVisibility && { roleVisibility: options.roleVisibility }),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
  };
}

async function runCommand(question: string | undefined, options: RunOptions, signal: AbortSignal): Promise<void> {
  const config = await buildConfig(question, options);
  const { roles, labelOf } = debateRoles(config);
  const transcript = await runWatched(roles, labelOf, (watch) =>
    runDebateToFile(config, { outPath: options.out, ...(options.dir !== undefined && { dir: options.dir }), freshRun: freshRunHint(options.dir), signal, ...watch }),
  );
  const replayed = transcript.rounds.flatMap((round) => round.turns).filter((turn) => turn.replayed).length;
  printOut(
    `wrote ${options.out}: ${transcript.stop.roundsRun} round(s), stopped by ${transcript.stop.reason}${replayed ? `, ${replayed} call(s) replayed from the audit log` : ''}\n\n` +
      analyzeDebate(transcript).table,
  );
}

/** Each model's role in the debate, and which role a call is for (agents carry a system prompt, judges none). */
function debateRoles(input: DebateConfigInput): { roles: ModelRole[]; labelOf: CallLabeler } {
  const config = parseDebateConfig(input);
  const agents = resolveAgents(config);
  const judges = [...(config.crit ? [{ name: 'CRIT', spec: config.crit.judge }] : []), ...(config.rca ? [{ name: 'RCA', spec: config.rca.judge }] : [])];
  const roles = [
    ...agents.map((agent) => ({ label: `agent ${agent.number} (${agent.model})`, spec: agent.model })),
    ...judges.map((judge) => ({ label: `${judge.name} judge (${judge.spec})`, spec: judge.spec })),
  ];
  const labelOf: CallLabeler = (spec, conversation) => {
    const sharing = agents.filter((agent) => agent.model === spec);
    if (conversation.system !== undefined && sharing.length > 0) {
      const agent = sharing.find((candidate) => conversation.system!.startsWith(`You are ${candidate.label},`)) ?? sharing[0]!;
      return `agent ${agent.number} (${spec})`;
    }
    const names = judges.filter((judge) => judge.spec === spec).map((judge) => judge.name);
    return names.length > 0 ? `${names.join('/')} judge (${spec})` : spec;
  };
  return { roles, labelOf };
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

