import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { redact } from '../../schemas/secrets.js';
import { compareHtml, compareMarkdown, loadReportSource, reportHtml, reportMarkdown, type ReportSource } from '../../protocols/report/index.js';
import { AUDIT_WARNING } from '../../state/audit-log.js';
import { parseEnvelope } from '../../state/envelope.js';
import { DELIBERATION_SCHEMA_VERSION } from '../deliberations.js';

interface ReportOptions {
  html?: string;
  md?: string;
  compare?: boolean;
}

/** `parley report run.json --html out.html`, `--md out.md` (Markdown to stdout by default), `--compare a.json b.json ...`. */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('a report of a saved run or deliberation state: self-contained HTML and/or Markdown')
    .argument('<files...>', 'argumentation state file, dialogic run file or debate transcript (several with --compare)')
    .option('--html <file>', 'write one offline HTML page here')
    .option('--md <file>', 'write the Markdown summary here (default: stdout when --html is not given)')
    .option('--compare', 'the same measures side by side for several runs')
    .action(async (files: string[], options: ReportOptions) => {
      try {
        await writeReports(files, options);
      } catch (error) {
        console.error(redact(`parley report: ${error instanceof Error ? error.message : String(error)}`));
        process.exitCode = 1;
      }
    });
}

export async function writeReports(files: string[], options: ReportOptions): Promise<void> {
  if (files.length > 1 && !options.compare) throw new Error(`${files.length} files given: add --compare to put them side by side, or give one file`);
  const sources = await Promise.all(
    files.map((file) =>
      load(file).catch((error: unknown) => {
        throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`);
      }),
    ),
  );
  const [first] = sources;
  if (!first) throw new Error('give a run or state file');
  // Reports quote replies and errors verbatim: known secrets are scrubbed from what is written.
  const html = async () => redact(await (options.compare ? compareHtml(sources) : reportHtml(first)));
  const markdown = () => redact(options.compare ? compareMarkdown(sources) : reportMarkdown(first));
  if (options.html) {
    await writeFile(options.html, await html());
    console.error(`wrote ${options.html}`);
  }
  if (options.md) {
    await writeFile(options.md, markdown());
    console.error(`wrote ${options.md}`);
  }
  if (!options.html && !options.md) process.stdout.write(markdown());
}

/** A state file from a newer parley is refused (its meaning may have changed); a damaged audit line is a warning. */
async function load(file: string): Promise<ReportSource> {
  const envelope = parseEnvelope(await readFile(file, 'utf8'));
  if (envelope.ok && envelope.envelope.schemaVersion > DELIBERATION_SCHEMA_VERSION) {
    throw new Error(
      `written by a newer parley (schemaVersion ${envelope.envelope.schemaVersion}; this one reads up to ${DELIBERATION_SCHEMA_VERSION}): upgrade parley to report on it`,
    );
  }
  const source = await loadReportSource(file);
  if (source.kind === 'argumentation') {
    for (const record of source.audit) if (record.type === AUDIT_WARNING) console.error(`parley report: warning: ${file}: ${String(record.warning)}`);
  }
  return source;
}
