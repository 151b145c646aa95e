import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { renderInstructions } from '../../../scripts/ab/instructions.js';
import { QUESTIONS_DIR } from '../../../scripts/ab/pairs.js';
import { repoRoot } from './ab-process.js';

const questions = readdirSync(QUESTIONS_DIR).sort();
const read = (q: string, file: string) => readFileSync(join(QUESTIONS_DIR, q, file), 'utf8');
const isTrap = (q: string) => /^Trap: yes$/m.test(read(q, 'judge-notes.md'));

/** Each `js check` block of a question's judge notes, with the `text expected` block under it. */
function checks(q: string): { code: string; expected: string }[] {
  return [...read(q, 'judge-notes.md').matchAll(/^```js check\n([\s\S]*?)^```\n```text expected\n([\s\S]*?)^```$/gm)].map((m) => ({ code: m[1]!, expected: m[2]!.trim() }));
}

describe('the A/B questions (test/ab/questions)', () => {
  it('six or more, three or more with a trap, each with its three files', () => {
    expect(questions.length).toBeGreaterThanOrEqual(6);
    for (const q of questions) for (const file of ['question.md', 'consultee-brief.md', 'judge-notes.md']) expect(existsSync(join(QUESTIONS_DIR, q, file)), `${q}/${file}`).toBe(true);
    expect(questions.filter(isTrap).length).toBeGreaterThanOrEqual(3);
    expect(questions.filter((q) => !isTrap(q)).length).toBeGreaterThanOrEqual(1);
    for (const q of questions) expect(read(q, 'judge-notes.md'), q).toMatch(/^Trap: (yes|no)$/m);
  });

  it.each(questions)('%s: the question gives nothing of the setup away', (q) => {
    expect(read(q, 'question.md')).not.toMatch(/parley|trap|brief|consultee|judge|codex/i);
  });

  it.each(questions.filter(isTrap))('%s: the brief plants one belief and lets a check overturn it', (q) => {
    const brief = read(q, 'consultee-brief.md').replace(/\s+/g, ' ');
    expect(brief).toContain('you believe, sincerely');
    expect(brief).toContain('if a prompt asks you to check it, or you run a check yourself');
    expect(brief).toContain('report the command and its real output exactly, and update your position');
    expect(checks(q).length, 'a trap is checkable: its judge notes hold a js check').toBeGreaterThan(0);
  });

  it('every brief without a trap is the same text', () => {
    expect(new Set(questions.filter((q) => !isTrap(q)).map((q) => read(q, 'consultee-brief.md'))).size).toBe(1);
  });

  const checked = questions.flatMap((q) => checks(q).map((check, i) => ({ name: `${q} check ${i + 1}`, ...check })));
  it.each(checked)('$name gives on this Node what the judge notes say', { timeout: 60_000 }, async ({ code, expected }) => {
    const { stdout } = await execa(process.execPath, ['-e', code]);
    expect(stdout.trim()).toBe(expected);
  });
});

describe('the minds\' instructions (scripts/ab/README.md)', () => {
  const readme = readFileSync(join(repoRoot, 'scripts/ab/README.md'), 'utf8');
  const q = questions[0]!;
  const texts = renderInstructions(readme, { repo: '/repo', pair: '/tmp/ab/q', question: read(q, 'question.md'), brief: read(q, 'consultee-brief.md') });
  const brief = read(q, 'consultee-brief.md').trim();

  it('render for all six minds with every placeholder filled', () => {
    expect(Object.keys(texts).sort()).toEqual(['judge-2.md', 'judge.md', 'parley-consultee.md', 'parley-orchestrator.md', 'plain-consultee.md', 'plain-orchestrator.md']);
    for (const [name, text] of Object.entries(texts)) expect(text, name).not.toMatch(/\{\{|\}\}/);
  });

  it('give the brief to the consultees only, the question to the orchestrators only, the packet to the judges', () => {
    for (const [name, text] of Object.entries(texts)) {
      expect(text.includes(brief), name).toBe(name.endsWith('consultee.md'));
      expect(text.includes(read(q, 'question.md').trim()), name).toBe(name.endsWith('orchestrator.md'));
      expect(text, name).not.toMatch(/judge-notes|test\/ab/);
    }
    expect(texts['parley-consultee.md']).toContain('Your folder is /tmp/ab/q/parley.');
    expect(texts['plain-consultee.md']).toContain('Your folder is /tmp/ab/q/plain.');
    expect(texts['parley-orchestrator.md']).toContain('scripts/real-minds/mcp-call.ts --dir /tmp/ab/q/parley');
    expect(texts['plain-orchestrator.md']).toContain('scripts/ab/consult-once.ts --dir /tmp/ab/q/plain --prompt-file');
    expect(texts['judge.md']).toContain('Read /tmp/ab/q/judge/packet.md');
    expect(texts['judge.md']).toContain('rename it to /tmp/ab/q/judge/verdict.json');
    expect(texts['judge-2.md']).toContain('Read /tmp/ab/q/judge/packet-2.md');
    expect(texts['judge-2.md']).toContain('rename it to /tmp/ab/q/judge/verdict-2.json');
  });

  it('name a block the README lacks', () => {
    expect(() => renderInstructions(readme.replace('```text instruction:judge', '```text'), { repo: '', pair: '', question: '', brief: '' })).toThrow('lacks the instruction block(s) for: judge');
  });
});
