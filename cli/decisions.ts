import type { Command } from 'commander';
import { findRecord, indexDecisions, listLines, requireDecisionFolder, searchLines } from '../protocols/decisions/index.js';
import { positiveInteger } from './option-parsers.js';
import { reportFailure } from './shared.js';
import { printOut } from './terminal.js';

const FOLDER_HELP = 'the decision folder, relative to the repository (default: the one .adr-dir names, else docs/adr, docs/decisions, doc/adr or adr)';
const print = (lines: string[]) => printOut(`${lines.join('\n')}\n`);

/** `parley decisions list|search <words...>|show <number>`, run inside the repository. */
export function registerDecisionsCommand(program: Command): void {
  const decisions = program.command('decisions').description("the repository's decision records (ADRs): list, search, show; run inside the repository");
  decisions
    .command('list')
    .description('every record, one line each: number, title, date, status')
    .option('--dir <folder>', FOLDER_HELP)
    .action((options: { dir?: string }) => reportFailure('decisions list', async () => print(listLines(await requireDecisionFolder(process.cwd(), options.dir)))));
  decisions
    .command('search')
    .description('the records related to the words, best first, each on its own line (or a sentence saying none is)')
    .argument('<words...>', 'a question or some words')
    .option('--dir <folder>', FOLDER_HELP)
    .option('--limit <n>', 'at most this many records', positiveInteger, 3)
    .action((words: string[], options: { dir?: string; limit: number }) =>
      reportFailure('decisions search', async () => {
        const folder = await requireDecisionFolder(process.cwd(), options.dir);
        const question = words.join(' ');
        print(searchLines(indexDecisions(folder.records).search(question, options.limit), question, folder));
      }),
    );
  decisions
    .command('show')
    .description('one record as written')
    .argument('<number>', '7, 0007 or ADR-0007')
    .option('--dir <folder>', FOLDER_HELP)
    .action((number: string, options: { dir?: string }) =>
      reportFailure('decisions show', async () => {
        const folder = await requireDecisionFolder(process.cwd(), options.dir);
        printOut(folder.texts.get(findRecord(folder, number).file) ?? '');
      }),
    );
}
