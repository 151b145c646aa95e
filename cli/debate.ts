import { Command, Option } from 'commander';
import { analyzeDebate, exportGraph, measuresToCsv, parseDebateConfig, runDebateToFile } from '../protocols/debate/index.js';
import { resolveAgents } from '../protocols/debate/agents.js';
import { debateFailures, failureLine } from '../protocols/debate/failures.js';
import { CritConfig, DebateConfig, type DebateConfigInput } from '../schemas/debate.js';
import { isPlainObject } from '../protocols/canonical-json.js';
import { readJsonFile } from '../state/json-text.js';
import { parleyCommand } from './invocation.js';
import { givenOptions, mergedConfig, readConfigFile, sourceOfKey } from './config-sources.js';
import { runWatched, type CallLabeler, type ModelRole } from './model-calls.js';
import { EXIT_CODES_HELP, EXIT_RUN_HAD_FAILURES, freshRunHint, reportFailure, runInterruptible } from './shared.js';
import { finiteNumber, positiveInteger } from './option-parsers.js';
import { printErr, printOut } from './terminal.js';

const FORMATS = ['json', 'csv', 'dot', 'mermaid', 'table'] as const;
type Format = (typeof FORMATS)[number];

/** `parley debate "question" --agent ... --out f.json` runs a debate; `parley debate analyze f.json` measures one. */
export function registerDebateCommand(program: Command): void {
  const defaults = DebateConfig.parse({ question: 'q', agents: ['a', 'b'] });
  const debate = program
    .command('debate')
    .description('run a multi-agent debate (resumes when its run folder already exists)')
    .argument('[question]', 'the question or task under debate')
    .option('--agent <spec>', 'a debater, e.g. openai:gpt-4.1 or codex:gpt-5.2 (repeat, 2 or more)', collect, [])
    .option('--role <text>', 'role or stance of the agent at the same position (repeatable)', collect, [])
    .option('--rounds <n>', `rounds to run (default: ${defaults.rounds})`, positiveInteger)
    .option('--options <list>', 'comma-separated answer options')
    .addOption(new Option('--answer-kind <kind>', `agents answer with one option, or with a distribution over the options (default: ${defaults.answerKind})`).choices(['option', 'distribution']))
    .option('--ground-truth <answer>', 'the right answer, for the measures only (never shown to a model)')
    .option('--crit <judge>', 'score each round with CRIT using this judge model')
    .addOption(new Option('--crit-variant <variant>', `CRIT scoring (default: ${CritConfig.parse({ judge: 'j' }).variant})`).choices(['gamma', 'pillars', 'both']))
    .option('--rca <judge>', 'judge trace-output consistency each round with this model')
    .option('--pid', 'steer the tone with the PID controller on contentiousness (needs --crit)')
    .option('--no-anonymise', 'show agents by model name instead of "Agent n"')
    .addOption(new Option('--role-visibility <who>', `who sees the roles given with --role: the other agents and the judges, the judges only, or nobody else (default: ${defaults.roleVisibility})`).choices(['all', 'judges', 'none']))
    .option('--temperature <t>', 'sampling temperature', finiteNumber)
    .option('--config <file>', "a debate config as one JSON object ({\"question\": ..., \"agents\": [...], \"rounds\": 2, ...}); the flags given override its keys, and a key it does not know is refused")
    .option('--out <file>', 'where the transcript JSON goes', 'debate.json')
    .option('--dir <folder>', 'run folder for the audit log (default: <out without its extension>.run, e.g. debate.run)')
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .action(async (question: string | undefined, options: RunOptions, command: Command) => {
      await runInterruptible('debate', (signal) => runCommand(question, options, givenOptions(command), signal));
    });

  debate
    .command('analyze <file>')
    .description('the debate graph and measures of a saved transcript')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('json'))
    .addOption(new Option('--table <table>', 'which CSV table').choices(['rounds', 'agents']).default('rounds'))
    .action(async (file: string, options: { format: Format; table: 'rounds' | 'agents' }) => {
      await reportFailure('debate', async () => {
        const analysis = analyzeDebate(await readJsonFile(file));
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
  rounds?: number;
  options?: string;
  groundTruth?: string;
  crit?: string;
  critVariant?: 'gamma' | 'pillars' | 'both';
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

/** The debate config the given flags set (the rest comes from --config, then the defaults). */
function flagConfig(question: string | undefined, options: RunOptions, given: Set<string>, file: Record<string, unknown> | undefined): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  if (question !== undefined) flags.question = question;
  if (given.has('agent')) flags.agents = options.agent.map((model, index) => ({ model, ...(options.role[index] && { role: options.role[index] }) }));
  else if (given.has('role')) flags.agents = withRoles(file?.agents, options.role);
  if (given.has('rounds')) flags.rounds = options.rounds;
  if (given.has('options')) flags.options = options.options!.split(',').map((option) => option.trim()).filter(Boolean);
  if (given.has('answerKind')) flags.answerKind = options.answerKind;
  if (given.has('groundTruth')) flags.groundTruth = options.groundTruth;
  if (given.has('crit')) flags.crit = { judge: options.crit, ...(given.has('critVariant') && { variant: options.critVariant }) };
  else if (given.has('critVariant')) {
    if (!isPlainObject(file?.crit)) throw new Error('--crit-variant is how the CRIT judge scores: give the judge too, with --crit <judge> (or crit in the --config file)');
    flags.crit = { ...file.crit, variant: options.critVariant };
  }
  if (given.has('rca')) flags.rca = { judge: options.rca };
  if (given.has('pid')) flags.pid = isPlainObject(file?.pid) ? file.pid : {};
  if (given.has('anonymise')) flags.anonymise = options.anonymise;
  if (given.has('roleVisibility')) flags.roleVisibility = options.roleVisibility;
  if (given.has('temperature')) flags.temperature = options.temperature;
  return flags;
}

/** --role without --agent: the roles of the config file's agents, by position. */
function withRoles(agents: unknown, roles: string[]): unknown[] {
  if (!Array.isArray(agents)) throw new Error('--role gives the role of the agent at the same position: give the agents too, with --agent <spec> (or agents in the --config file)');
  return agents.map((agent, index) => {
    const role = roles[index];
    if (role === undefined) return agent;
    return typeof agent === 'string' ? { model: agent, role } : isPlainObject(agent) ? { ...agent, role } : agent;
  });
}

/** The configuration that runs: the given flags over the --config file over the defaults; every problem named, with the file it is in. */
async function buildConfig(question: string | undefined, options: RunOptions, given: Set<string>): Promise<DebateConfigInput> {
  const file = await readConfigFile(options.config, 'debate config');
  const sources = { ...(file && { file }), flags: flagConfig(question, options, given, file?.config) };
  const config = mergedConfig(sources);
  if (!file && config.question === undefined) throw new Error(`give the question: ${parleyCommand()} debate "<question>" --agent <spec> --agent <spec>`);
  if (!file && options.agent.length < 2) throw new Error('give at least two debaters with --agent <spec>');
  parseDebateConfig(config as DebateConfigInput, sourceOfKey(sources));
  return config as DebateConfigInput;
}

async function runCommand(question: string | undefined, options: RunOptions, given: Set<string>, signal: AbortSignal): Promise<void> {
  const config = await buildConfig(question, options, given);
  const { roles, labelOf } = debateRoles(config);
  const transcript = await runWatched(roles, labelOf, (watch) =>
    runDebateToFile(config, { outPath: options.out, ...(options.dir !== undefined && { dir: options.dir }), freshRun: freshRunHint(options.dir), signal, ...watch }),
  );
  const replayed = transcript.rounds.flatMap((round) => round.turns).filter((turn) => turn.replayed).length;
  printOut(
    `wrote ${options.out}: ${transcript.stop.roundsRun} round(s), stopped by ${transcript.stop.reason}${replayed ? `, ${replayed} call(s) replayed from the audit log` : ''}\n\n` +
      analyzeDebate(transcript).table,
  );
  const failures = debateFailures(transcript);
  if (failures.length > 0) {
    printErr(`parley debate: the debate finished, but some of its calls gave nothing usable, so its measures leave them out:\n${failures.map((failure) => `  ${failureLine(failure)}`).join('\n')}`);
    process.exitCode = EXIT_RUN_HAD_FAILURES;
  }
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

