import { describe, expect, it } from 'vitest';
import { answerKind, narrowedClaim } from '../../../protocols/argumentation/reading/reply-answers.js';
import { readReply } from '../../../protocols/argumentation/reading/reply-reader.js';
import { detectFormatFailure } from '../../../protocols/argumentation/moves/reply-record.js';

// The misreadings of the issue-12 audit: a wrong full concession dismisses a point silently, so an ambiguous
// answer reads as a defense or a partial concession, and every id the reply names is answered or listed.
const answers = (text: string, quick = false) => readReply(text, { quick }).answers.map((a) => [a.ref, a.kind]);

describe('answerKind: a defense or a partial concession is never read as a full concession', () => {
  it.each([
    'Fair challenge. Here is the measurement: pgbench shows 39% fewer round trips (EVIDENCE: bench.txt:14).',
    "You're right to push on this. The source is F6.",
    'I agree it needs a source; the source is F6.',
    'Agreed that it was unsourced; it is now sourced: bench.txt:14.',
    'Granted, the bench was synthetic. The production trace in F4 shows the same.',
    'Not agreed. The figure is from F6.',
    "I'm not sure I accept that framing. F6 shows it.",
    "I don't think you're right: the docs say the opposite.",
    '> No measurement behind the figure; withdraw it or narrow it.\n\nThe measurement is F6. I keep the claim.',
  ])('defense: %s', (text) => {
    expect(answerKind(text)).toBe('defense');
  });

  it.each([
    "You're right that the bench was on NVMe, but it doesn't change the recommendation.",
    'Partially. The figure goes; the direction is still right.',
    'Fair, up to a point. What I can support is 300 jobs/s.',
    "I'll narrow this: only tables under 5M rows/day.",
    'I concede the number. The mechanism is unaffected.',
    "I'll take the hit on the figure — withdrawn. The mechanism claim in P2.1 stands without it.",
    "I can't defend the 40% number, so I'll let it go. The rest of P1.1 is only the mechanism.",
    'Conceded. I can\'t source the figure. Drop it from P2.1; the rest of P2.1 doesn\'t depend on it.',
    'Some of this lands. The figure was synthetic; the direction is right.',
  ])('partial: %s', (text) => {
    expect(answerKind(text)).toBe('partial-concession');
  });

  it.each(['Withdrawn.', 'Fair — I drop P1.1.', 'This is a fair hit and I concede it. The objection holds.', "You're right; withdrawn. P2.2 doesn't hold.", 'I concede P2.5 entirely.'])('concession: %s', (text) => {
    expect(answerKind(text)).toBe('concession');
  });

  // Issue 27 item 1: the first is the mind's own words, read as a concession in quick mode.
  it.each([
    'Re P1.1: INFERENCE: I disagree and keep P1.1. The objection ... shows no run on Node 20 ... If that passes, I drop P1.1.',
    "I'd concede only if you show a run on Node 20.",
    "Show me the timings and I'll withdraw it.",
    'If your run passes I drop it.',
    "Should the Node 20.19 run pass, I'll withdraw P1.1.",
    'I keep P1.1 unless someone shows a run on Node 20; once one passes, I drop it.',
    'I will concede C1 the moment you post a passing run.',
    'Provided the CI matrix goes green on Node 20, consider P1.1 withdrawn. Until then it stands.',
    'Give me a benchmark under 5 ms and I give up the claim.',
    'Were the migration to cost more than a sprint, I would retract this. It costs two days (F3).',
    "If you're right about the lock order, I concede; I don't think you are: F4 shows the order.",
    "You'd be right if the table were partitioned; it isn't (F3).",
    'Assuming the rerun reproduces your number, I concede the figure. Nobody has rerun it yet.',
    "I'll withdraw it, provided the run passes on Node 20.",
  ])('a conditional offer keeps the claim: %s', (text) => {
    expect(answerKind(text)).toBe('defense');
  });

  it.each([
    'I concede C1, even if it stings.',
    'I concede C1. If you want numbers, F4 has them.',
    'Withdrawn. If the Node 20 run had passed I would have kept it, but it failed.',
    // Words that set a condition only opening a clause, and "if" for "whether", set none here.
    'I concede C1: the jobs ran once a day, not every minute.',
    'I concede C1: the numbers provided in F4 were synthetic.',
    'I concede C1: I was assuming a single node.',
    "I concede C1; I don't know if the run even happened.",
    'I concede, if reluctantly, that the figure was a guess.',
    'I get the point and I withdraw P1.1.',
  ])(
    'a concession beside a condition still gives the claim up: %s',
    (text) => {
      expect(answerKind(text)).toBe('concession');
    },
  );

  it('never takes a quoted challenge for the claim kept', () => {
    expect(narrowedClaim('> **C2:** withdraw the claim or narrow it to: low-volume tables.\n\nI concede the figure, but batching still cuts round trips under load.')).toBe('batching still cuts round trips under load.');
    expect(narrowedClaim('Partially. The figure goes. The direction is still right: batching cuts round trips on fsync-bound disks.')).toBe('batching cuts round trips on fsync-bound disks.');
  });
});

describe('readReply: answers wherever a reply puts them', () => {
  it('cuts a line answering several ids at each id', () => {
    expect(answers('C1: conceded. C2: stands — F4 shows the dead-tuple ceiling. C3: withdrawn.')).toEqual([
      ['C1', 'concession'],
      ['C2', 'defense'],
      ['C3', 'concession'],
    ]);
    expect(answers('I concede C1 and C3; C2 stands:\n\nthe staging replica shows a bounded n_dead_tup (EVIDENCE: stats.txt:3).')).toEqual([
      ['C1', 'concession'],
      ['C3', 'concession'],
      ['C2', 'defense'],
    ]);
  });

  it('reads table rows by the id in their first cell', () => {
    const text = 'Where I land:\n\n| Challenge | Response |\n|---|---|\n| C1 | Conceded — no benchmark. |\n| **C2** | Defended: F4 shows it. |';
    expect(answers(text)).toEqual([
      ['C1', 'concession'],
      ['C2', 'defense'],
    ]);
  });

  it('reads "On the vacuum question (C2):" as an answer to C2', () => {
    expect(answers('On the vacuum question (C2): bloat is bounded (F4).\n\nOn the throughput number (C1) I\'ll concede; I can\'t source it.')).toEqual([
      ['C2', 'defense'],
      ['C1', 'concession'],
    ]);
  });

  it('lists an id named outside any answer to it, with the sentences naming it', () => {
    const r = readReply('Thanks. C3 is the one I want to think about more.\n\nRe C1: conceded.\n\nRe C2: Defended. F4 shows it, which also bears on C3.\n\nNo further points; I stand by C4.');
    expect(r.mentions).toEqual([
      { ref: 'C3', text: 'C3 is the one I want to think about more. F4 shows it, which also bears on C3.' },
      { ref: 'C4', text: 'No further points; I stand by C4.' },
    ]);
    expect(r.nothingFurther).toBe(true);
  });
});

describe('readReply: "nothing further" in its common variants', () => {
  it.each([
    "I don't have any further points.",
    "I don't have any further points to add. The open challenges have been answered.",
    "I don't have anything new to add.",
    '(No further points.)',
    'N/A — no further points.',
    'None.',
    'No further objections.',
    'I agree; no further comments.',
    'All good, nothing to add.',
    'I stand by my previous points; nothing new.',
    'Nothing new from my side this round — I stand by P3.1 and P3.2 as they are recorded.',
  ])('%s', (text) => {
    const r = readReply(text);
    expect([r.nothingFurther, detectFormatFailure(r)]).toEqual([true, undefined]);
  });

  it('still reads the points and answers of a reply that also says so', () => {
    const r = readReply('Re C1: conceded.\n\n1. Batching helps. INFERENCE\n\nNone.');
    expect([r.answers.length, r.points.length, r.nothingFurther]).toEqual([1, 1, true]);
  });

  it('does not take a long argument that opens with "no further" for one', () => {
    expect(readReply('No further evidence is needed because the docs say so and the bench shows it clearly under our load today.').nothingFurther).toBe(false);
  });
});

describe('readReply: label forms', () => {
  it.each(['Type — Evidence.', '**Type:** Evidence.', '*Label: inference.*', 'Basis: guess —'])('%s', (label) => {
    const p = readReply(`1. **Throughput is enough.** ${label} I ran the bench: 4,200 jobs/s.`).points[0];
    expect(p?.label).toBeDefined();
    expect(p?.unlabeledVerification).toBe(false);
  });
});
