import { join, relative } from 'node:path';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { visibleControls } from '../../schemas/visible-controls.js';
import {
  ADR_DIR_FILE,
  CONVENTIONAL_FOLDERS,
  createFileExclusive,
  findDecisionFolder,
  folderInRepository,
  markdownSignature,
  readMarkdownFiles,
  rememberDecisionFolder,
  replaceIfUnchanged,
  repositoryRoot,
} from '../../state/decision-files.js';
import { errnoCode } from '../../state/store-error.js';
import { byNumber, headingTitle, parseDecisionRecord, recordId, type DecisionRecord } from './record.js';
import { indexDecisions, type DecisionIndex, type DecisionSearch } from './search.js';
import { markSuperseded, nextNumber, recordFileName, withSupersedes } from './supersede.js';

/** A repository's decision folder as read now: its records and the text each was read from. */
export interface DecisionFolder {
  root: string;
  /** Relative to the root, as the user would name it (docs/adr). */
  folder: string;
  dir: string;
  records: DecisionRecord[];
  texts: Map<string, string>;
}

const looked = `${ADR_DIR_FILE}, ${CONVENTIONAL_FOLDERS.join(', ')}`;

type FolderPlace = Pick<DecisionFolder, 'root' | 'folder' | 'dir'>;

/** Where the decision folder of the repository `cwd` is in (or the one named, relative to its root) lies; undefined when it has none. */
async function placeOf(cwd: string, named?: string): Promise<FolderPlace | undefined> {
  const root = await repositoryRoot(cwd);
  const folder = named?.replace(/[/\\]+$/, '') ?? (await findDecisionFolder(root));
  if (folder === undefined) return undefined;
  return { root, folder, dir: await folderInRepository(root, folder) };
}

async function readFolder(place: FolderPlace): Promise<DecisionFolder> {
  const files = await readMarkdownFiles(place.dir);
  const records = byNumber(files.map(({ file, text }) => parseDecisionRecord(file, text)).filter((r) => r !== undefined));
  return { ...place, records, texts: new Map(files.map(({ file, text }) => [file, text])) };
}

/** The decision folder of the repository `cwd` is in (or the one named, relative to its root), read now; undefined when it has none. */
export async function openDecisionFolder(cwd: string, named?: string): Promise<DecisionFolder | undefined> {
  const place = await placeOf(cwd, named);
  return place && readFolder(place);
}

/** Like openDecisionFolder, but a repository without one is an error that says where parley looked. */
export async function requireDecisionFolder(cwd: string, named?: string): Promise<DecisionFolder> {
  const found = await openDecisionFolder(cwd, named);
  if (found) return found;
  throw new UserFacingError(`no decision folder in ${await repositoryRoot(cwd)} (looked for ${looked}): run inside the repository, or name the folder (parley decisions --dir)`, { code: 'no-decision-folder' });
}

/**
 * The folders searched lately, each indexed as it was read: the server lives long and asks at every
 * delib_start, so an unchanged folder (by markdownSignature) is not read, parsed and indexed again.
 */
const indexed = new Map<string, { signature: string; folder: DecisionFolder; index: DecisionIndex }>();
const FOLDERS_KEPT = 8;

/** The records related to a question, or undefined when the repository keeps none. */
export async function searchDecisions(cwd: string, question: string, options: { folder?: string; limit?: number } = {}): Promise<(DecisionSearch & { folder: DecisionFolder }) | undefined> {
  const place = await placeOf(cwd, options.folder);
  if (!place) return undefined;
  // Taken before the read: a file edited meanwhile changes the next signature, so it is read again then.
  const signature = await markdownSignature(place.dir);
  let kept = indexed.get(place.dir);
  if (kept?.signature !== signature) {
    const folder = await readFolder(place);
    kept = { signature, folder, index: indexDecisions(folder.records) };
  }
  indexed.delete(place.dir);
  indexed.set(place.dir, kept);
  for (const dir of [...indexed.keys()].slice(0, -FOLDERS_KEPT)) indexed.delete(dir);
  return { folder: kept.folder, ...kept.index.search(question, options.limit) };
}

/** One record by number ("7", "0007", "ADR-0007"). */
export function findRecord(folder: DecisionFolder, number: string): DecisionRecord {
  const id = recordIdOf(number);
  const found = folder.records.filter((r) => r.id === id);
  if (found.length === 1 && found[0]) return found[0];
  const range = folder.records.length ? ` (it holds ${folder.records[0]?.id} to ${folder.records.at(-1)?.id})` : ' (it holds none yet)';
  if (!found.length) throw new UserFacingError(`no record ${id} in ${folder.folder}${range}`, { code: 'no-decision-record' });
  throw new UserFacingError(`${found.length} records in ${folder.folder} are numbered ${id} (${found.map((r) => r.file).join(', ')}): renumber one first`, { code: 'ambiguous-decision-record' });
}

function recordIdOf(number: string): string {
  const match = /^\s*(?:ADR[-_ ]?)?(\d{1,6})\s*$/i.exec(number);
  if (!match) throw new UserFacingError(`${JSON.stringify(number)} is not a record number: give it as 7, 0007 or ADR-0007`, { code: 'invalid-decision-number' });
  return recordId(Number(match[1]));
}

export interface WrittenRecord {
  /** Relative to the repository's root. */
  file: string;
  number: string;
  /** False when the deliberation's record was already there (nothing was written). */
  written: boolean;
  /** The old records now marked superseded by it. */
  superseded: string[];
  /** What was left as it was, and why (a status the user set by hand, a record already written). */
  notes: string[];
}

/**
 * Writes a deliberation's decision record into the repository's decision folder, numbered after the
 * folder's own records, then marks the records it supersedes. A record of the same deliberation
 * already there is left as it is (the call says so and writes nothing); no file is ever replaced.
 */
export async function writeDecisionRecord(cwd: string, input: { markdown: string; deliberationId: string; folder?: string; supersedes?: string[] }): Promise<WrittenRecord> {
  const found = await openDecisionFolder(cwd, input.folder);
  if (!found) throw new UserFacingError(`no decision folder in ${await repositoryRoot(cwd)} (looked for ${looked}): name one with decisionRecord.folder (created if missing, and remembered in ${ADR_DIR_FILE})`, { code: 'no-decision-folder' });
  const rel = (file: string) => relative(found.root, join(found.dir, file));
  const old = [...new Map((input.supersedes ?? []).map((number) => findRecord(found, number)).map((r) => [r.id, r])).values()];
  const notes: string[] = [];
  const earlier = found.records.find((r) => r.deliberation === input.deliberationId);
  if (earlier) return { file: rel(earlier.file), number: earlier.id, written: false, superseded: [], notes: [`deliberation ${input.deliberationId} is already recorded as ${rel(earlier.file)}: nothing written (edit that file to change it)`] };
  if (input.folder !== undefined) notes.push(...(await remembered(found)));

  // A model's words reach the file: control characters are written as escapes, as in every report.
  const text = visibleControls(withSupersedes(input.markdown, old));
  const title = headingTitle(input.markdown) ?? 'decision';
  let number = nextNumber(found.records);
  let file = '';
  for (let attempt = 0; ; attempt++, number++) {
    file = recordFileName(number, title);
    try {
      await createFileExclusive(found.dir, file, text);
      break;
    } catch (error) {
      // Another writer took the number meanwhile: the next one.
      if (errnoCode(error) !== 'EEXIST' || attempt >= 5) throw error;
    }
  }

  const superseded: string[] = [];
  for (const record of old) {
    const before = found.texts.get(record.file) ?? '';
    const outcome = markSuperseded(before, record, { id: recordId(number), file, title });
    if ('problem' in outcome) notes.push(outcome.problem);
    else if ('already' in outcome) superseded.push(record.id);
    else if (await replaceIfUnchanged(join(found.dir, record.file), before, outcome.text)) superseded.push(record.id);
    else notes.push(`ADR-${record.id} (${record.file}) changed on disk while parley wrote ADR-${recordId(number)}: left as it is; mark it superseded by hand`);
  }
  return { file: rel(file), number: recordId(number), written: true, superseded, notes };
}

/** A folder the user named, written to `.adr-dir` when the repository would not otherwise find it. */
async function remembered(found: DecisionFolder): Promise<string[]> {
  const current = await findDecisionFolder(found.root);
  if (current === found.folder) return [];
  try {
    await rememberDecisionFolder(found.root, found.folder);
    return [`${ADR_DIR_FILE} written: later deliberations find ${found.folder}`];
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
    return [`${ADR_DIR_FILE} names ${current}, not ${found.folder}: left as it is, so later searches read ${current}`];
  }
}
