import { mdLine, mdText } from './markdown.js';

/**
 * A model's or a person's text as Markdown that keeps its shape and nothing else: paragraphs and
 * line breaks, and fenced code rendered as code. Every prose line is inert (mdLine: no heading, list
 * item, link, HTML or code span of theirs); a code block is put under a fence of our own, longer than
 * any run of backticks inside it, so no line of the text can close it and speak outside it.
 */

/** An opening fence as CommonMark reads one: up to three spaces, three or more backticks or tildes. */
const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;
/** An info string kept only when it is plainly a language name. */
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,20}$/;

type Block = { kind: 'prose'; lines: string[] } | { kind: 'code'; lines: string[]; language: string };

/** Prose and fenced code, in order; an unclosed fence runs to the end, as a Markdown reader would take it. */
export function splitFencedCode(text: string): Block[] {
  const blocks: Block[] = [];
  let prose: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!);
    // A backtick fence's info string holds no backtick (CommonMark): "```x``` y" is a code span.
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) {
      prose.push(lines[i]!);
      continue;
    }
    const [, indent, fence] = open as unknown as [string, string, string, string];
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    const code: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !closing.test(lines[j]!); j++) code.push(stripIndent(lines[j]!, indent.length));
    if (prose.length) blocks.push({ kind: 'prose', lines: prose });
    prose = [];
    const language = open[3]!.trim().split(/\s+/)[0] ?? '';
    blocks.push({ kind: 'code', lines: code, language: LANGUAGE.test(language) ? language : '' });
    i = j;
  }
  if (prose.length) blocks.push({ kind: 'prose', lines: prose });
  return blocks;
}

const stripIndent = (line: string, n: number) => line.replace(new RegExp(`^ {0,${n}}`), '');

/** A fence no line of `lines` can close: longer than every run of backticks in them. */
function fenceFor(lines: string[]): string {
  const longest = Math.max(0, ...lines.flatMap((line) => (line.match(/`+/g) ?? []).map((run) => run.length)));
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * `value` as Markdown blocks: prose lines inert and kept apart by hard breaks, paragraphs by a blank
 * line, code under its own fence. Lines after the first start with `indent` (a list item's content
 * column), so the text stays inside its item.
 */
export function mdBlocks(value: string, indent = ''): string {
  const parts: string[] = [];
  for (const block of splitFencedCode(value)) {
    if (block.kind === 'code') {
      const fence = fenceFor(block.lines);
      parts.push([`${fence}${block.language}`, ...block.lines.map((line) => line.trimEnd()), fence].map((line) => (line ? indent + line : '')).join('\n').slice(indent.length));
      continue;
    }
    const paragraphs = block.lines
      .join('\n')
      .split(/\n\s*\n/)
      .map((paragraph) =>
        paragraph
          .split('\n')
          .map((line) => mdLine(line, Infinity))
          .filter(Boolean)
          .join(`  \n${indent}`),
      )
      .filter(Boolean);
    parts.push(...paragraphs);
  }
  // Code cannot open on the line its caller starts ("- **P1.2** "): it goes under it.
  const lead = parts.length && parts[0]!.startsWith('```') ? `\n\n${indent}` : '';
  return lead + parts.join(`\n\n${indent}`);
}

/** The text without its code fences, the code's lines kept (what a one-line view or a comparison reads). */
export function withoutFences(value: string): string {
  return splitFencedCode(value)
    .map((block) => block.lines.join('\n'))
    .join('\n');
}

/** One line of inert Markdown from text that may hold code blocks (a quoted earlier version, an option). */
export const mdInline = (value: string, max = 600): string => mdText(withoutFences(value), max);
