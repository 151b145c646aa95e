// The reply corpus (test/protocols/argumentation/replies/*.md): natural consultee replies, each with the reading a
// careful human reader gives it. Shared by reading-corpus.test.ts and bench/reading.ts.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Reading } from '../../../protocols/argumentation/reading/reading.js';
import { answerPieces } from '../../../protocols/argumentation/reading/reply-answers.js';
import { askedAsPoint, isQuestionsTitle, onlyNothingFurther, questionsIn } from '../../../protocols/argumentation/reading/reply-paragraphs.js';
import { readReply } from '../../../protocols/argumentation/reading/reply-reader.js';

export const REPLIES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'replies');

interface ExpectedPoint {
  number: number;
  label?: string;
  has?: string;
  not?: string;
  pointRefs?: string[];
  mentions?: string[];
  /** An item inside the answer to this id. */
  partOf?: string;
  /** Earlier points it says it replaces. */
  supersedes?: string[];
}
interface ExpectedAnswer {
  ref: string;
  kind: string;
  has?: string;
  /** A partial concession: what its narrowed claim must contain; null: none can be cut out. */
  narrowed?: string | null;
  /** New arguments inside an answer that gives something up, each read as a point of its own (what each contains). */
  added?: string[];
}
export interface Expected {
  headline?: string | null;
  points?: ExpectedPoint[];
  answers?: ExpectedAnswer[];
  nothingFurther?: boolean;
  questions?: string[];
  sections?: string[];
  /** Ids named but not answered outside the points (only checked when annotated). */
  mentioned?: string[];
}
export interface CorpusReply {
  file: string;
  context: { mode?: string; phase?: string | null; n?: number; asked?: string[] };
  expected: Expected;
  note?: string;
  text: string;
}

export function loadCorpus(dir = REPLIES_DIR): CorpusReply[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((file) => parseReplyFile(file, readFileSync(join(dir, file), 'utf8')));
}

export function parseReplyFile(file: string, source: string): CorpusReply {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!m) throw new Error(`${file}: no front matter`);
  const meta = (parse(m[1] ?? '') ?? {}) as Partial<CorpusReply>;
  return { file, context: meta.context ?? {}, expected: meta.expected ?? {}, note: meta.note, text: m[2] ?? '' };
}

export function readCorpusReply(reply: CorpusReply): Reading {
  return readReply(reply.text, { quick: reply.context.mode === 'quick', ...(reply.context.n ? { iteration: reply.context.n } : {}) });
}

/** Whitespace collapsed and Markdown emphasis (* _ `) dropped, so a phrase matches however it was marked up. */
export function norm(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/\s+/g, ' ').trim();
}

// A line's leading marks: quote, heading, bullet, and a point's number ("1.", "(2)", "Point 3:", "P3.1 —").
const MARKER = /^(?:>\s*)*(?:#{1,6}\s+)?(?:[-+]\s+)?(?:\(?\d{1,3}[.):]|\d{1,3}\s+[—–]|(?:point|pt\.?)\s*#?\d{1,3}\s*[.):—–-]?|P\d+\.\d+\s*[.):—–-]?)?\s*/i;
// Pure Markdown decoration: rules, table separator rows, bare marks.
const DECORATION = /^[\s\-*_=|:#>`~+]*$/;

/**
 * The non-empty lines of a reply that are in no part of its reading (headline, a point, an answer, a
 * question, a section), leaving out pure decoration, fences, the nothing-further line when it was read,
 * and the heading of a questions list whose questions were read.
 */
export function lostLines(text: string, reading: Reading): string[] {
  const parts = [
    reading.headline ?? '',
    ...reading.points.map((p) => `${p.heading ?? ''}\n${p.text}`),
    ...reading.answers.map((a) => `${a.heading ?? ''}\n${a.text}`),
    ...reading.questions,
    ...reading.sections.map((s) => `${s.title}\n${s.text}`),
  ].map(norm);
  return text.split(/\r?\n/).filter((line) => {
    const content = norm(line).replace(MARKER, '').replace(/\s*:$/, '');
    if (!content || DECORATION.test(line) || /^\s*(?:```|~~~)/.test(line)) return false;
    if (reading.nothingFurther && (onlyNothingFurther(line) || onlyNothingFurther(line.replace(/^\s*\d{1,3}[.)]\s+/, '')))) return false;
    const title = /^\s{0,3}#{1,6}\s|^\s*(?:\*\*|__).*(?:\*\*|__):?\s*$|:\s*$/.test(line);
    if (title && reading.questions.length > 0 && isQuestionsTitle(content)) return false;
    const kept = (piece: string): boolean => parts.some((p) => p.includes(piece));
    // A line answering several ids in turn is read as one answer per id.
    // A paragraph of questions is read as one question each.
    const asked = questionsIn(line);
    if (asked.length > 1 && asked.every((q) => kept(norm(q)))) return false;
    // A numbered item titled as a question for the user is read as that question.
    const titled = askedAsPoint(line.replace(/^\s*\d{1,3}[.)]\s+/, ''));
    if (titled && kept(norm(titled))) return false;
    return !kept(content) && !answerPieces(line, true).every((piece) => kept(norm(piece).replace(MARKER, '')));
  });
}

const contains = (text: string, phrase: string): boolean => norm(text).includes(norm(phrase));
const sameSet = (a: string[], b: string[]): boolean => JSON.stringify([...new Set(a)].sort()) === JSON.stringify([...new Set(b)].sort());
const show = (text: string): string => JSON.stringify(norm(text).slice(0, 160));

/** Every way the reading differs from the annotation; empty when it reads exactly as expected. */
export function mismatches(reply: CorpusReply, reading = readCorpusReply(reply)): string[] {
  const e = reply.expected;
  const out: string[] = [];
  const headline = e.headline ?? null;
  if (headline === null && reading.headline !== undefined) out.push(`headline: expected none, read ${show(reading.headline)}`);
  if (headline !== null && !contains(reading.headline ?? '', headline)) out.push(`headline: expected ${show(headline)}, read ${reading.headline === undefined ? 'none' : show(reading.headline)}`);

  const points = e.points ?? [];
  if (points.length !== reading.points.length) out.push(`points: expected ${points.map((p) => p.number).join(',') || 'none'}, read ${reading.points.map((p) => p.number).join(',') || 'none'}`);
  points.forEach((want, i) => {
    const got = reading.points.filter((p) => p.number === want.number)[points.slice(0, i).filter((p) => p.number === want.number).length];
    const at = `point ${want.number}`;
    if (!got) return void out.push(`${at}: missing`);
    if ((want.label ?? undefined) !== got.label) out.push(`${at}: label expected ${want.label ?? 'none'}, read ${got.label ?? 'none'}`);
    if (want.has && !contains(got.text, want.has)) out.push(`${at}: lacks ${show(want.has)}; text ${show(got.text)}`);
    if (want.not && contains(got.text, want.not)) out.push(`${at}: holds ${show(want.not)} which belongs elsewhere`);
    if (!sameSet(want.pointRefs ?? [], got.pointRefs)) out.push(`${at}: pointRefs expected [${want.pointRefs ?? []}], read [${got.pointRefs}]`);
    if (!sameSet(want.mentions ?? [], got.challengeMentions)) out.push(`${at}: mentions expected [${want.mentions ?? []}], read [${got.challengeMentions}]`);
    if ((want.partOf ?? undefined) !== got.partOf) out.push(`${at}: partOf expected ${want.partOf ?? 'none'}, read ${got.partOf ?? 'none'}`);
    if (!sameSet(want.supersedes ?? [], got.supersedes ?? [])) out.push(`${at}: supersedes expected [${want.supersedes ?? []}], read [${got.supersedes ?? []}]`);
  });

  const answers = e.answers ?? [];
  if (answers.length !== reading.answers.length) out.push(`answers: expected [${answers.map((a) => a.ref)}], read [${reading.answers.map((a) => a.ref)}]`);
  for (const want of answers) {
    const got = reading.answers.find((a) => a.ref.toUpperCase() === want.ref.toUpperCase());
    const at = `answer ${want.ref}`;
    if (!got) {
      out.push(`${at}: missing`);
      continue;
    }
    if (want.kind !== got.kind) out.push(`${at}: kind expected ${want.kind}, read ${got.kind}`);
    if (want.has && !contains(got.text, want.has)) out.push(`${at}: lacks ${show(want.has)}; text ${show(got.text)}`);
    if (want.narrowed && !contains(got.narrowedClaim ?? '', want.narrowed)) out.push(`${at}: narrowed claim lacks ${show(want.narrowed)}; read ${show(got.narrowedClaim ?? '(none)')}`);
    const added = got.added ?? [];
    if ((want.added ?? []).length !== added.length || (want.added ?? []).some((a, i) => !contains(added[i] ?? '', a))) out.push(`${at}: new arguments expected [${(want.added ?? []).map(show)}], read [${added.map(show)}]`);
    if (want.narrowed === null && got.narrowedClaim !== undefined) out.push(`${at}: expected no narrowed claim (it cannot be cut out), read ${show(got.narrowedClaim)}`);
  }

  if ((e.nothingFurther ?? false) !== reading.nothingFurther) out.push(`nothingFurther: expected ${e.nothingFurther ?? false}, read ${reading.nothingFurther}`);

  const questions = e.questions ?? [];
  if (questions.length !== reading.questions.length) out.push(`questions: expected ${questions.length}, read ${reading.questions.length}: ${reading.questions.map(show).join(' | ')}`);
  questions.forEach((want, i) => {
    const got = reading.questions[i];
    if (got === undefined || !contains(got, want)) out.push(`question ${i + 1}: expected ${show(want)}, read ${got === undefined ? 'none' : show(got)}`);
  });

  if (e.mentioned && !sameSet(e.mentioned, reading.mentions.map((m) => m.ref))) out.push(`mentioned: expected [${e.mentioned}], read [${reading.mentions.map((m) => m.ref)}]`);

  const titles = (e.sections ?? []).map(norm);
  const read = reading.sections.map((s) => norm(s.title));
  if (JSON.stringify(titles) !== JSON.stringify(read)) {
    out.push(`sections: expected ${JSON.stringify(titles)}, read ${JSON.stringify(read)} (${reading.sections.map((s) => show(s.text).slice(0, 60)).join(' | ')})`);
  }
  return out;
}
