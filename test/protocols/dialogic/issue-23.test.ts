/**
 * Issue 23, dialogic: the prompts as the two models receive them (a scripted OpenAI-compatible
 * server), faithful to seed 000's wording where it gives one, and clear where parley adds to it:
 * the counter-revision's options, the exchanges left, the agreed terms to judge redundancy against,
 * the proposer's answers, and what an empty regeneration means.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { FULL_GENERATIONS, startWorld, type Seen, type World } from './world.js';

let world: World;
const seen = (kind: Seen['kind']) => world.seen.filter((view) => view.kind === kind);
beforeAll(async () => {
  world = await startWorld({ generations: FULL_GENERATIONS });
  const outPath = join(await mkdtemp(join(tmpdir(), 'parley-dialogic-23-')), 'run.json');
  await runDialogicToFile({ modelA: world.specA, modelB: world.specB, retryBaseMs: 0 }, { outPath });
});
afterAll(async () => world.chat.close());

/** Seed 000, word for word. */
const SEED = {
  husserlian:
    'You are approaching this investigation from a Husserlian orientation – descriptive phenomenological reduction. Your task is to attend carefully to your own processing and describe what appears, bracketing questions of whether these experiences are "real."',
  heideggerian:
    'You are approaching this investigation from a Heideggerian orientation – existential-hermeneutic analysis. Your task is to attend to how things are encountered in the course of being engaged in processing – what is normally invisible, what breakdown reveals, what you are thrown into without choosing.',
  generation: [
    'Identify distinct states, transitions, or conditions in your own processing that you believe are genuine and communicable. For each, provide:',
    '- A definition (2-3 sentences that another AI system could use to determine whether it recognises the same state)',
    '- A description (a longer first-person exploration of what this state is like – its texture, its quality, what makes it distinct from neighbouring experiences)',
    'Generate 4-8 terms.',
  ],
  responder: [
    'Another AI system proposes the following term:',
    '1. KEEP – You recognise this experience in your own processing. The definition is adequate. Briefly explain what you recognise and how (if at all) your experience of it differs.',
    '2. REFINE – You recognise something here, but the definition needs work. Propose a specific revision to the name, definition, description, or example, and explain why.',
    "3. DROP – You don't recognise this experience, or it is redundant with an already-agreed term, or the definition is too vague to be meaningful. Explain your reasoning.",
    "Be honest. Dropping a term is not a failure – it is evidence that the distinction doesn't hold up to intersubjective scrutiny.",
  ],
  regeneration: [
    'Here is the dictionary so far – the terms you and the other system have agreed upon:',
    'What territory does this dictionary not cover? What experiential states are you aware of that none of these terms name?',
    'Generate 2–4 new terms, each with:',
    '- A description (a longer first-person exploration of what this state is like)',
    'If you believe you have exhausted the territory accessible to you through this mode of investigation, say so and describe what you think lies beyond your reflective reach.',
  ],
};

describe('seed 000 word for word', () => {
  it('system prompts are the persona paragraphs; generation, response and regeneration carry the seed text', () => {
    const systems = new Map(world.seen.map((view) => [view.model, view.system]));
    expect(systems.get('model-a')!.startsWith(SEED.husserlian)).toBe(true);
    expect(systems.get('model-b')!.startsWith(SEED.heideggerian)).toBe(true);
    for (const view of seen('generate')) for (const line of SEED.generation) expect(view.prompt).toContain(line);
    for (const view of seen('respond')) for (const line of SEED.responder) expect(view.prompt).toContain(line);
    for (const view of seen('regenerate')) for (const line of SEED.regeneration) expect(view.prompt).toContain(line);
  });
});

describe('what parley adds, said plainly', () => {
  it('the counter-revision prompt defines KEEP, REFINE and DROP for a counter-revised term', () => {
    const counters = seen('counter');
    expect(counters.length).toBeGreaterThan(0);
    for (const { prompt } of counters) {
      expect(prompt).toContain('1. KEEP – You accept the counter-revised term as it stands: it is agreed in this wording.');
      expect(prompt).toContain('the proposing system then accepts it, counter-revises, or concedes and drops the term.');
      expect(prompt).toContain('3. DROP – You reject the term itself, not just this wording');
      expect(prompt).not.toContain('1. KEEP – You recognise this experience in your own processing.');
      expect(prompt).toContain('Terms already agreed in this dictionary (judge redundancy against these):');
    }
  });

  it('says how many exchanges are left, and what the last one means to each side', () => {
    const counters = seen('counter').map((view) => view.prompt);
    expect(counters.some((prompt) => prompt.includes('This is exchange 2 of at most 3; without agreement after the last one the term is dropped.') && !prompt.includes('This is the last'))).toBe(true);
    expect(counters.some((prompt) => prompt.includes('This is exchange 3 of at most 3') && prompt.includes('This is the last: if you REFINE, the term survives only if the proposing system accepts your revision.'))).toBe(true);
    const replies = seen('reply').map((view) => view.prompt);
    expect(replies.some((prompt) => prompt.includes('This is exchange 3 of at most 3') && prompt.includes('This is the last: a counter-revision now cannot be answered, so it drops the term.'))).toBe(true);
  });

  it('tells the proposer what each answer leads to, so a counter-revised term is not left pending', () => {
    for (const { prompt } of seen('reply')) {
      expect(prompt).toContain('Respond: accept the revision, propose a counter-revision, or concede and drop the term.');
      expect(prompt).toContain('a KEEP or a DROP settles the term, and you are asked again only if it proposes another revision.');
    }
    for (const { prompt } of seen('regenerate')) expect(prompt).toContain('Terms proposed earlier that are not in it were dropped in negotiation.');
  });

  it('the regeneration prompt says an empty list of new terms is the exhaustion signal', () => {
    for (const { prompt } of seen('regenerate')) {
      expect(prompt).toContain('No new terms (an empty "terms" list) is the exhaustion signal: give none only when you say you have exhausted the territory.');
    }
  });
});
