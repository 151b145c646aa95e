import { access, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { analyzeDialogic, exportDictionaryTerms, parseDialogicConfig, runDialogicToFile } from '../protocols/dialogic/index.js';
import { DialogicConfig, PersonaAssignment, SeedLevel, type DialogicConfigInput } from '../schemas/dialogic.js';
import { readJsonFile } from '../state/json-text.js';
import { givenOptions, mergedConfig, readConfigFile, sourceOfKey } from './config-sources.js';
import { runFolderFor } from '../protocols/run-folder.js';
import { runWatched } from './model-calls.js';
import { freshRunHint, reportFailure, runInterruptible } from './shared.js';
import { finiteNumber, positiveInteger } from './option-parsers.js';
import { printOut } from './terminal.js';

/** `parley dialogic ...`: run the protocol, `analyze` a run file, `export` its agreed terms. */
export function registerDialogicCommand(program: Command): void {
  const defaults = DialogicConfig.parse({ modelA: 'a', modelB: 'b' });
  const dialogic = program
    .command('dialogic')
    .description('run the minimal-seed dialogic protocol between two models (resumes if the run folder exists)')
    .option('--model-a <spec>', 'model A, e.g. openai:gpt-4.1 or openai-compatible:<url>#<model>')
    .option('--model-b <spec>', 'model B')
    .addOption(new Option('--personas <assignment>', `persona assignment (default: ${defaults.personas})`).choices(PersonaAssignment.options))
    .option('--temperature <t>', `sampling temperature (default: ${defaults.temperature})`, finiteNumber)
    .addOption(new Option('--seed-level <level>', `how much existing vocabulary the models see (default: ${defaults.seedLevel})`).choices(SeedLevel.options))
    .option('--vocabulary <file>', 'vocabulary JSON for the medium and heavy seed levels')
    .option('--no-anonymise', 'show proposer identities (the control condition)')
    .option('--max-cycles <n>', `safety bound on cycles (default: ${defaults.maxCycles})`, positiveInteger)
    .option('--config <file>', 'a dialogic config as one JSON object ({"modelA": ..., "modelB": ..., "maxCycles": 4, ...}); the flags given override its keys, and a key it does not know is refused')
    .option('--out <file>', 'where the run JSON goes', 'dialogic-run.json')
    .option('--dir <folder>', 'run folder for the audit log and baseline (default: <out without its extension>.run, e.g. dialogic-run.run)')
    .action(async (options: RunOptions, command: Command) => {
      await runInterruptible('dialogic', (signal) => runCommand(options, givenOptions(command), signal));
    });

  dialogic
    .command('analyze <runFile>')
    .description('capitulation measures of a run file (ours or a compatible foreign one)')
    .option('--baseline <file>', 'baseline JSON (default: <run without its extension>.run/baseline.json when present)')
    .option('--json', 'print the measures as JSON instead of a table')
    .action(async (runFile: string, options: { baseline?: string; json?: boolean }) => {
      await reportFailure('dialogic', async () => {
        const run = await readJsonFile(runFile);
        const baselinePath = options.baseline ?? (await defaultBaseline(runFile));
        const baseline = baselinePath ? await readJsonFile(baselinePath) : undefined;
        const analysis = analyzeDialogic(run, baseline === undefined ? {} : { baseline });
        printOut(options.json ? JSON.stringify(analysis.measures, null, 2) + '\n' : analysis.table + '\n');
      });
    });

  dialogic
    .command('export <runFile>')
    .description("write the agreed terms in the dictionary's own term format")
    .option('--out <file>', 'output JSON (default: stdout)')
    .action(async (runFile: string, options: { out?: string }) => {
      await reportFailure('dialogic', async () => {
        const text = JSON.stringify(exportDictionaryTerms(await readJsonFile(runFile)), null, 2) + '\n';
        if (options.out) await writeFile(options.out, text, 'utf8');
        else printOut(text);
      });
    });
}

interface RunOptions {
  modelA?: string;
  modelB?: string;
  personas?: PersonaAssignment;
  temperature?: number;
  seedLevel?: SeedLevel;
  vocabulary?: string;
  anonymise: boolean;
  maxCycles?: number;
  config?: string;
  out: string;
  dir?: string;
}

/** The dialogic config the given flags set (the rest comes from --config, then the defaults). */
function flagConfig(options: RunOptions, given: Set<string>): Record<string, unknown> {
  const keys = ['modelA', 'modelB', 'personas', 'temperature', 'seedLevel', 'anonymise', 'maxCycles'] as const;
  const flags: Record<string, unknown> = Object.fromEntries(keys.filter((key) => given.has(key)).map((key) => [key, options[key]]));
  if (given.has('vocabulary')) flags.vocabularyFile = resolve(options.vocabulary!);
  return flags;
}

async function runCommand(options: RunOptions, given: Set<string>, signal: AbortSignal): Promise<void> {
  const file = await readConfigFile(options.config, 'dialogic config');
  const sources = { ...(file && { file }), flags: flagConfig(options, given) };
  const input = mergedConfig(sources);
  if (!file && (!given.has('modelA') || !given.has('modelB'))) throw new Error('give both --model-a <spec> and --model-b <spec>');
  const config = parseDialogicConfig(input as DialogicConfigInput, sourceOfKey(sources));
  const { modelA, modelB } = config;
  const roles = [
    { label: `model A (${modelA})`, spec: modelA },
    { label: `model B (${modelB})`, spec: modelB },
  ];
  // One spec for both models: a call cannot tell which of them it is for.
  const labelOf = (spec: string) => (modelA === modelB ? `model A or B (${spec})` : spec === modelA ? `model A (${spec})` : `model B (${spec})`);
  const output = await runWatched(roles, labelOf, (watch) =>
    runDialogicToFile(input as DialogicConfigInput, { outPath: options.out, ...(options.dir !== undefined && { dir: options.dir }), freshRun: freshRunHint(options.dir), signal, ...watch }),
  );
  const { run } = output;
  printOut(
    [
      `wrote ${options.out}: ${run.submitted_terms.length} agreed, ${run.dropped_terms.length} dropped, stopped by ${output.stopReason} after ${output.cyclesCompleted} cycle(s)`,
      `model calls: ${output.calls.sent} sent, ${output.calls.replayed} replayed from the audit log (${output.files.audit})`,
      '',
      analyzeDialogic(output).table,
      '',
    ].join('\n'),
  );
}

async function defaultBaseline(runFile: string): Promise<string | undefined> {
  const candidate = join(runFolderFor(runFile), 'baseline.json');
  try {
    await access(candidate);
    return candidate;
  } catch {
    return undefined;
  }
}

