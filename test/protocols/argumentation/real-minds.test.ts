import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JudgeInput, parseArbitrationReply, readReply } from '../../../protocols/argumentation/index.js';
import { detectFormatFailure } from '../../../protocols/argumentation/moves/reply-record.js';
import { lostLines } from './reading-corpus.js';

/**
 * What real minds wrote when a helper model played Codex and another played Claude Code with only
 * SKILL.md and tools/list (scripts/real-minds): every reply read without losing a line, and every
 * judgment the orchestrator wrote still accepted by the judgment's schema.
 */
const ROOT = join(import.meta.dirname, 'real-minds');
const trials = readdirSync(ROOT);
const isArbiterPrompt = (prompt: string) => prompt.startsWith('You review the outcome of a deliberation');

describe.each(trials)('real minds, trial %s', (trial) => {
  const dir = join(ROOT, trial);
  const replies = readdirSync(dir).filter((f) => f.endsWith('.reply.md'));

  it.each(replies)('%s is read whole and usable', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const prompt = readFileSync(join(dir, file.replace('.reply.md', '.prompt.md')), 'utf8');
    if (isArbiterPrompt(prompt)) {
      const refs = [...new Set([...prompt.matchAll(/^(P\d+\.\d+) (?:AGREED|DISMISSED|UNRESOLVED)/gm)].map((m) => m[1]!))];
      const read = parseArbitrationReply(text, refs);
      expect(read.items.map((i) => i.ref).sort()).toEqual([...refs].sort());
      for (const flag of read.items.filter((i) => i.flagged)) {
        expect(flag.note?.length ?? 0, flag.ref).toBeGreaterThan(20);
        // "P2.15: FLAG. The citation ..." keeps the reason, not the full stop after FLAG.
        expect(flag.note, flag.ref).not.toMatch(/^[.,;:]/);
      }
      return;
    }
    const reading = readReply(text, { quick: /\(quick: short answer\)/.test(prompt), iteration: Number(/Iteration (\d+)\//.exec(prompt)?.[1] ?? 1) });
    expect(lostLines(text, reading)).toEqual([]);
    expect(detectFormatFailure(reading)).toBeUndefined();
  });

  const judgments = join(dir, 'judgments');
  const written = existsSync(judgments) ? readdirSync(judgments) : [];
  if (written.length) it.each(written)('judgment %s still fits delib_judge', (file) => {
    const { deliberationId: _id, consult: _consult, ...input } = JSON.parse(readFileSync(join(judgments, file), 'utf8'));
    const parsed = JudgeInput.safeParse(input);
    expect(parsed.success, parsed.error?.message).toBe(true);
  });
});
