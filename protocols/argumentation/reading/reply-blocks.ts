import { answerPieces, answerRefs, rowRefs } from './reply-answers.js';
import { isNewItem, isNewPointsMark } from './reply-paragraphs.js';

export type BlockKind = 'numbered' | 'answer' | 'heading' | 'fence' | 'table' | 'quote' | 'bullet' | 'para';

/** A run of lines that starts with one structural line (or a blank line) and holds what follows it. */
export interface Block {
  kind: BlockKind;
  lines: string[];
  /** Indentation of the first line (tabs count 4). */
  indent: number;
  /** A blank line (or the start of the reply) comes before it. */
  blankBefore: boolean;
  /** numbered: the consultee's number, and the first line without its marker. */
  number?: number;
  rest?: string;
  /** numbered: written as a heading ("### 1. Title"). */
  headed?: boolean;
  /** numbered: how the number is marked ("." ")" "**." "point" "id"...), to tell a sub-list from the points. */
  style?: string;
  /** heading: the heading or bold title, without marks or a trailing colon. */
  title?: string;
  /** answer: the ids the block answers. */
  refs?: string[];
}

// "1." "1)" "(1)" "**1.**" "**1. Title**" "### 1." "Point 1:" "**Point 1 —**", optionally after "- ";
// with the iteration known, also the point's own id ("**P3.1** —", "P3.2:").
const numberedCache = new Map<number | undefined, RegExp>();
function numberedPattern(iteration?: number): RegExp {
  let re = numberedCache.get(iteration);
  if (!re) {
    const pid = iteration === undefined ? '' : `|P${iteration}\\.(?<pid>\\d{1,3})(?:\\s*[.):—–-](?!\\d)|(?=\\*\\*|__|\\s|$))`;
    re = new RegExp(
      `^\\s*(?:[-+]\\s+)?(?:#{1,6}\\s+)?(?<open>\\*\\*|__)?\\s*(?:(?:point|pt\\.?)\\s*#?(?<pn>\\d{1,3})(?:\\s*[.):—–-](?!\\d)|(?=\\*\\*|__|\\s*\\(|\\s*$))${pid}|(?<paren>\\()?(?<n>\\d{1,3})(?<inner>\\*\\*|__)?(?<sep>[.)]|:(?!\\d)|\\s+[—–](?=\\s))(?=\\s|\\*|_|$))(?<close>\\*\\*|__)?\\s*`,
      'i',
    );
    numberedCache.set(iteration, re);
  }
  return re;
}
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s*(```|~~~)/;

export function indentOf(line: string): number {
  const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
  return [...lead].reduce((n, ch) => n + (ch === '\t' ? 4 : 1), 0);
}

function numbered(line: string, iteration?: number): { number: number; rest: string; headed: boolean; style: string } | undefined {
  const m = numberedPattern(iteration).exec(line);
  const g = m?.groups;
  if (!m || !g || indentOf(line) > 1) return undefined;
  // "- (4) quoted text": a bullet that cites a numbered part of something else, not the consultee's point 4.
  if (g.paren && /^\s*[-+*]\s/.test(line)) return undefined;
  let rest = line.slice(m[0].length).trimEnd();
  const closed = g.inner ?? g.close;
  // "**1. Title** body": the bold wraps the title too, so keep its opening marks.
  if (g.open && !closed) rest = `${g.open}${rest}`;
  if (!g.open && g.close) rest = `${g.close}${rest}`;
  // "**P3.1** — body": the dash after the bold id is part of the marker.
  if (g.pid) rest = rest.replace(/^[:.—–-]\s*/, '');
  const headed = /^\s*#/.test(line);
  const kind = g.pid ? 'id' : g.pn ? 'point' : `${g.paren ?? ''}${(g.sep ?? '').trim()}`;
  return { number: Number(g.pid ?? g.pn ?? g.n), rest, headed, style: `${headed ? '#' : ''}${g.open ? '*' : ''}${kind}` };
}

/** A whole-line bold title ("**Recommendation**", "**Suggested rollout:**"), not a bold sentence. */
export function boldTitle(line: string): string | undefined {
  const m = /^\s{0,1}(\*\*|__)([^*_].*?)\1\s*:?\s*$/.exec(line);
  const inner = m?.[2]?.trim();
  if (!inner || inner.length > 90 || /[.!?]$/.test(inner) || /:\s*\S/.test(inner)) return undefined;
  return inner.replace(/[:\s]+$/, '');
}

function heading(line: string): string | undefined {
  const m = HEADING.exec(line);
  return m ? (m[2] ?? '').replace(/[*_`]/g, '').replace(/[:\s]+$/, '').trim() : undefined;
}

/** A line that goes on with the text above it: not blank, and no point, answer, heading or bold title. */
function continuesText(line: string, quick: boolean, iteration?: number): boolean {
  if (!line.trim()) return false;
  return indentOf(line) > 1 || (numbered(line, iteration) === undefined && heading(line) === undefined && answerRefs(line, quick).length === 0 && boldTitle(line) === undefined);
}

/** Splits a reply into blocks; fenced code stays whole inside the block it belongs to. */
export function splitBlocks(text: string, quick: boolean, iteration?: number): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  let fence: string | undefined;
  let blank = true;
  const start = (kind: BlockKind, line: string, extra: Partial<Block> = {}): void => {
    current = { kind, lines: [line], indent: indentOf(line), blankBefore: blank, ...extra };
    blocks.push(current);
    blank = false;
  };
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (const [i, line] of lines.entries()) {
    if (fence) {
      current?.lines.push(line);
      if (line.trim().startsWith(fence)) fence = undefined;
      continue;
    }
    if (!line.trim()) {
      current = undefined;
      blank = true;
      continue;
    }
    const opener = FENCE.exec(line)?.[1];
    if (opener) {
      fence = opener;
      // A fence right under a point's line belongs to that block; after a blank it is a block of its own.
      if (current && !blank) current.lines.push(line);
      else start('fence', line);
      continue;
    }
    const top = indentOf(line) <= 1;
    const item = top ? numbered(line, iteration) : undefined;
    if (item) {
      start('numbered', line, item);
      continue;
    }
    const title = heading(line);
    // A "# ..." line inside a run of text lines is a shell comment or a command, not a top-level heading.
    if (title !== undefined && current && !blank && /^\s*#\s/.test(line) && continuesText(lines[i + 1] ?? '', quick, iteration)) {
      current.lines.push(line);
      continue;
    }
    if (title !== undefined) {
      start('heading', line, { title });
      current = undefined;
      continue;
    }
    // Several answers on one line, or an answer after a sentence of prose: each answer is a block of its own.
    const [first = line, ...more] = top && current?.kind !== 'numbered' ? answerPieces(line, quick) : [line];
    const answers = (): void => more.forEach((piece) => start('answer', piece, { refs: answerRefs(piece, quick) }));
    const refs = top ? [...answerRefs(first, quick), ...rowRefs(first, quick)] : [];
    if (refs.length > 0) {
      start('answer', first, { refs });
      answers();
      continue;
    }
    if (more.length > 0) {
      if (current && !blank) current.lines.push(first);
      else start(kindOf(first), first);
      answers();
      continue;
    }
    // "New points:" ends the answers above it even with no blank line before it; so does a paragraph that opens "New: ...".
    if (top && isNewPointsMark(line)) {
      start('heading', line, { title: line.replace(/[*_`#]/g, '').replace(/[:\s]+$/, '').trim() });
      current = undefined;
      continue;
    }
    if (top && current && !blank && isNewItem(line)) {
      start(kindOf(line), line);
      continue;
    }
    const bold = top ? boldTitle(line) : undefined;
    if (bold !== undefined) {
      start('heading', line, { title: bold });
      current = undefined;
      continue;
    }
    if (current && !blank) {
      current.lines.push(line);
      continue;
    }
    start(kindOf(line), line);
  }
  return blocks;
}

function kindOf(line: string): BlockKind {
  const trimmed = line.trimStart();
  return trimmed.startsWith('|') ? 'table' : trimmed.startsWith('>') ? 'quote' : /^[-*+]\s/.test(trimmed) ? 'bullet' : 'para';
}
