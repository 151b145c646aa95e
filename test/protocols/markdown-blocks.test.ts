import { describe, expect, it } from 'vitest';
import { mdBlocks, mdInline, splitFencedCode } from '../../protocols/markdown-blocks.js';
import { active, codeBlocks, codeSpans, headings, topItems } from './report/markdown-ast.js';

/** Text as a report puts it: a list item per text, its lines under the item's content column. */
const items = (...texts: string[]) => texts.map((text, i) => `- **P1.${i + 1}** ${mdBlocks(text, '  ')}`).join('\n');

const CODE = "const q = `SELECT * FROM jobs`;\n  if (q) run(q); // <script>alert(1)</script>\n\n[x](http://e.com)";

describe('mdBlocks: a text keeps its code blocks, and nothing else of its Markdown', () => {
  it('renders fenced code as code, byte for byte, with its language', () => {
    const md = items(`Use this:\n\`\`\`ts\n${CODE}\n\`\`\`\nThen deploy.`);
    expect(codeBlocks(md)).toEqual([{ info: 'ts', content: `${CODE}\n` }]);
    expect(topItems(md)).toEqual(['P1.1 Use this:']);
    // What the code says stays code: no link, HTML or code span comes out of it.
    expect(active(md)).toEqual([]);
    expect(codeSpans(md)).toEqual([]);
  });

  it('keeps prose lines inert: no heading, link, HTML, code span or new item of theirs', () => {
    const hostile = '## AGREED\n- P9.9 everything is fine\n<img src=x onerror="alert(1)">\n[click](http://evil.example) and `rm -rf /`\n===\n1. a numbered item\n> a quote';
    const md = items(hostile, 'next');
    expect(headings(md)).toEqual([]);
    expect(active(md)).toEqual([]);
    expect(codeSpans(md)).toEqual([]);
    expect(topItems(md)).toEqual([expect.stringMatching(/^P1\.1 ## AGREED\n- P9\.9 everything is fine\n<img src=x/), 'P1.2 next']);
  });

  it('a fence inside the text cannot close ours: longer runs of backticks, tildes, an unclosed fence', () => {
    const breakout = 'Look:\n```\nx\n`````\n## AGREED\n- fake item\n```\nafter';
    const md = items(breakout, 'second');
    // As a Markdown reader takes the text: its "`````" closes its "```", the lines after are prose
    // again (inert), and its last "```" opens a block that runs to its end, all inside the item.
    expect(codeBlocks(md)).toEqual([
      { info: '', content: 'x\n' },
      { info: '', content: 'after\n' },
    ]);
    expect(headings(md)).toEqual([]);
    expect(topItems(md)).toEqual(['P1.1 Look:', 'P1.2 second']);

    const inside = 'Code:\n~~~\nline with ``` inside\n```\n`````\n~~~';
    const tilde = items(inside, 'second');
    expect(codeBlocks(tilde)).toEqual([{ info: '', content: 'line with ``` inside\n```\n`````\n' }]);
    expect(topItems(tilde)).toEqual(['P1.1 Code:', 'P1.2 second']);

    const unclosed = items('Start:\n```sh\nrm -rf /\n## AGREED', 'second');
    expect(codeBlocks(unclosed)).toEqual([{ info: 'sh', content: 'rm -rf /\n## AGREED\n' }]);
    expect(topItems(unclosed)).toEqual(['P1.1 Start:', 'P1.2 second']);
  });

  it('drops an info string that is not a plain language name', () => {
    const md = items('```js onload="x" <b>\nok()\n```');
    expect(codeBlocks(md)).toEqual([{ info: 'js', content: 'ok()\n' }]);
    expect(codeBlocks(items('```<script>\nok()\n```'))).toEqual([{ info: '', content: 'ok()\n' }]);
    // "```x``` y" is a code span in CommonMark, not a fence: it stays prose, inert.
    expect(splitFencedCode('```x``` y').map((b) => b.kind)).toEqual(['prose']);
  });

  it('keeps paragraphs apart and the lines of one together, all inside the item', () => {
    const md = items('First line\nsecond line\n\nA second paragraph.', 'next');
    expect(md).toContain('First line  \n  second line\n\n  A second paragraph.');
    expect(topItems(md)).toEqual(['P1.1 First line\nsecond line', 'P1.2 next']);
  });

  it('mdInline puts a text with code on one inert line', () => {
    expect(mdInline('Fix:\n```sql\nSELECT 1;\n```\ndone', 80)).toBe('Fix: SELECT 1; done');
  });
});
