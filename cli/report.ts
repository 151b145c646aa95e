import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import { redact } from '../schemas/secrets.js';
import { visibleControls } from '../schemas/visible-controls.js';
import { compareHtml, compareMarkdown, loadReportSource, reportHtml, reportMarkdown, type ReportSource } from '../protocols/report/index.js';
import { decisionRecordMarkdown } from '../protocols/argumentation/index.js';
import { AUDIT_WARNING } from '../state/audit-log.js';
import { parseEnvelope } from '../state/envelope.js';
import { readTextFile, statPath } from '../state/read-file.js';
import { DELIBERATION_SCHEMA_VERSION } from '../mcp-server/deliberations.js';
import { printErr, printOut } from './terminal.js';

interface ReportOptions {
  html?: string;
  md?: string;
  compare?: boolean;
  format?: string;
}

const FORMATS = ['report', 'madr'];

/** `parley report run.json --html out.html`, `--md out.md` (Markdown to stdout by default), `--compare a.json b.json ...` or `--compare sweep/`. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('a report of a saved run or deliberation state: self-contained HTML and/or Markdown')
    .argument('<files...>', 'argumentation state file, dialogic run file, debate transcript or sweep (folder or its summary.json); several with --compare')
    .option('--html <file>', 'write one offline HTML page here')
    .option('--md <file>', 'write the Markdown summary here (default: stdout when --html is not given)')
    .option('--compare', 'the same measures side by side for several runs (a sweep: one column per cell)')
    .option('--format <format>', 'Markdown format: report (default), or madr, a deliberation as an architecture decision record', 'report')
    .action(async (files: string[], options: ReportOptions) => {
      try {
        await writeReports(files, options);
      } catch (error) {
        printErr(`parley report: ${error instanceof Error ? error.message : String(error)}`);
        process.exitCode = 1;
      }
    });
}

export async function writeReports(files: string[], options: ReportOptions): Promise<void> {
  const madr = options.format === 'madr';
  if (options.format !== undefined && !FORMATS.includes(options.format)) throw new Error(`unknown --format ${options.format}: give ${FORMATS.join(' or ')}`);
  if (madr && (options.compare || options.html)) throw new Error('--format madr is Markdown of one deliberation: drop --compare and --html');
  if (files.length > 1 && !options.compare) throw new Error(`${files.length} files given: add --compare to put them side by side, or give one file`);
  const loaded = await Promise.all(
    files.map((file) =>
      load(file, files.length > 1).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(message.includes(file) ? message : `${file}: ${message}`);
      }),
    ),
  );
  // `results/*.json` names a sweep through summary.json and sweep.json both: one column set per sweep.
  const seen = new Set<string>();
  const sources = loaded.filter((source): source is ReportSource => {
    if (!source) return false;
    if (source.kind !== 'sweep') return true;
    if (seen.has(source.sweep.dir)) return false;
    seen.add(source.sweep.dir);
    return true;
  });
  const [first] = sources;
  if (!first) throw new Error('give a run or state file');
  // Reports quote replies and errors verbatim: known secrets are scrubbed from what is written, and a
  // model's control characters are written as their escapes.
  const html = async () => visibleControls(redact(await (options.compare ? compareHtml(sources) : reportHtml(first))));
  const markdown = () => visibleControls(redact(options.compare ? compareMarkdown(sources) : madr ? decisionRecord(first) : reportMarkdown(first)));
  if (options.html) {
    await writeFile(options.html, await html());
    printErr(`wrote ${options.html}`);
  }
  if (options.md) {
    await writeFile(options.md, markdown());
    printErr(`wrote ${options.md}`);
  }
  if (!options.html && !options.md) printOut(markdown());
}

function decisionRecord(source: ReportSource): string {
  if (source.kind !== 'argumentation') throw new Error(`--format madr needs an argumentation state file, not a ${source.kind} run`);
  return decisionRecordMarkdown(source.state);
}

/**
 * A state file from a newer parley is refused (its meaning may have changed); a damaged audit line is
 * a warning. Among several files, one of a sweep folder that is no run (totals.json) is skipped.
 */
async function load(file: string, several: boolean): Promise<ReportSource | undefined> {
  if ((await statPath(file)).isDirectory()) return loadReportSource(file);
  const envelope = parseEnvelope(await readTextFile(file));
  if (envelope.ok && envelope.envelope.schemaVersion > DELIBERATION_SCHEMA_VERSION) {
    throw new Error(
      `written by a newer parley (schemaVersion ${envelope.envelope.schemaVersion}; this one reads up to ${DELIBERATION_SCHEMA_VERSION}): upgrade parley to report on it`,
    );
  }
  let source: ReportSource;
  try {
    source = await loadReportSource(file);
  } catch (error) {
    if (several && existsSync(join(dirname(file), 'sweep.json')) && /not a parley run/.test(String(error))) {
      printErr(`parley report: skipped ${file}: ${basename(file)} of a sweep folder is not a run`);
      return undefined;
    }
    throw error;
  }
  if (source.kind === 'argumentation') {
    for (const record of source.audit) if (record.type === AUDIT_WARNING) printErr(`parley report: warning: ${file}: ${String(record.warning)}`);
  }
  return source;
}
