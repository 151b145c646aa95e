import { describe, expect, it } from 'vitest';
import { readReply } from '../../../protocols/argumentation/reading/reply-reader.js';

const numbers = (text: string, quick = false) => readReply(text, { quick }).points.map((p) => p.number);
const answers = (text: string, quick = false) => readReply(text, { quick }).answers.map((a) => [a.ref, a.kind]);
const titles = (text: string) => readReply(text).sections.map((s) => s.title);

describe('readReply: headline', () => {
  it('takes the opening summary before the first point', () => {
    expect(readReply('Short answer: Postgres, unless you need fan-out.\n\n1. INFERENCE: ops cost.').headline).toBe('Short answer: Postgres, unless you need fan-out.');
  });

  it('keeps a bare lead-in as the headline', () => {
    expect(readReply('Here are my points:\n1. GUESS: fine.').headline).toBe('Here are my points:');
  });

  it('has none when the reply opens with a point, an answer or a heading', () => {
    expect(readReply('1. EVIDENCE: a.').headline).toBeUndefined();
    expect(readReply('Re C1: conceded.').headline).toBeUndefined();
    expect(readReply('## Points\n1. EVIDENCE: a.').headline).toBeUndefined();
  });
});

describe('readReply: points', () => {
  it('reads every common numbering style with the consultee\'s own number', () => {
    const styles = ['1. a', '2) b', '**3.** c', '**4. Title** d', '### 5.\ne', '### 6. Title\nf', 'Point 7: g', '**Point 8 —** h', '(9) i', '**10**. j'];
    expect(numbers(styles.join('\n\n'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keeps the marker out of the text and the title in', () => {
    const [a, b] = readReply('**1. Throughput** INFERENCE: fine.\n### 2. Cost\nEVIDENCE: cheap.').points;
    expect(a?.text).toBe('**Throughput** INFERENCE: fine.');
    expect(b?.text).toBe('Cost\nEVIDENCE: cheap.');
  });

  it('keeps nested lists, indented paragraphs, code, quotes and tables in the point', () => {
    const text = '1. EVIDENCE: claim\n   - sub item\n\n   more indented text\n   ```\n   code\n\n   more code\n   ```\n   > quoted\n\n| a | b |\n|---|---|\n\n2. GUESS: next';
    const [first, second] = readReply(text).points;
    for (const part of ['sub item', 'more indented text', 'more code', 'quoted', '| a | b |']) expect(first?.text).toContain(part);
    expect(second?.text).toBe('GUESS: next');
  });

  it('ends a point at a heading, a bold title, a question for the user or a closing paragraph', () => {
    const ends = ['## Next steps\nRun it.', '**Recommendation**\nPostgres.', 'Do you need fan-out?', 'Overall, Postgres.', 'Bottom line: Postgres.', 'TL;DR Postgres.', 'Net: Postgres.', 'In short, Postgres.'];
    for (const end of ends) {
      const r = readReply(`1. INFERENCE: the claim.\n\n${end}`);
      expect(r.points[0]?.text, end).toBe('INFERENCE: the claim.');
    }
  });

  it('gives numbered lists under a rollout heading to that section', () => {
    const r = readReply('1. GUESS: a.\n\n## Suggested rollout\n1. Add the table.\n2. Ship the worker.');
    expect(r.points.map((p) => p.number)).toEqual([1]);
    expect(r.sections).toEqual([{ title: 'Suggested rollout', text: '1. Add the table.\n2. Ship the worker.' }]);
  });

  it('reads numbered items under an argument heading as points, without a section for the heading', () => {
    const r = readReply('## Comparison\n\n1. EVIDENCE: a.\n2. INFERENCE: b.');
    expect(r.points.map((p) => p.number)).toEqual([1, 2]);
    expect(r.sections).toEqual([]);
  });

  it('keeps the sub-steps of a headed point in it', () => {
    const r = readReply('### 1. Expand/contract\nINFERENCE: the pattern:\n\n1. expand\n2. contract\n\n### 2. Locks\nEVIDENCE: x');
    expect(r.points.map((p) => p.number)).toEqual([1, 2]);
    expect(r.points[0]?.text).toContain('2. contract');
  });

  it('cites earlier points', () => {
    expect(readReply('1. INFERENCE: extends P2.1 and P1.3.').points[0]?.pointRefs).toEqual(['P2.1', 'P1.3']);
  });
});

describe('readReply: labels', () => {
  it('reads a label in any case when it is used as one', () => {
    const cases: [string, string | undefined][] = [
      ['1. EVIDENCE: x', 'EVIDENCE'],
      ['1. **Inference:** x', 'INFERENCE'],
      ['1. guess — x', 'GUESS'],
      ['1. The claim [evidence]', 'EVIDENCE'],
      ['1. The claim (Inference).', 'INFERENCE'],
      ['1. Guess: x', 'GUESS'],
      ['1. *inference* x', 'INFERENCE'],
      ['1. My guess is that it holds.', undefined],
      ['1. There is no evidence that it fails.', undefined],
      ['1. **Evidence:** none needed. **Inference:** it holds.', 'INFERENCE'],
    ];
    for (const [text, label] of cases) expect(readReply(text).points[0]?.label, text).toBe(label);
  });

  it('takes the first label in the point', () => {
    expect(readReply('1. [GUESS] a, then EVIDENCE: b').points[0]?.label).toBe('GUESS');
  });

  it('counts labels across the reply', () => {
    expect(readReply('1. EVIDENCE: a\n2. **Guess:** b\nRe C1: INFERENCE — c').labels).toEqual({ EVIDENCE: 1, INFERENCE: 1, GUESS: 1 });
  });

  it('flags an unlabeled claim of a check', () => {
    const [a, b] = readReply('1. I ran the tests and they pass.\n2. I ran it too. EVIDENCE: `npm test`').points;
    expect([a?.unlabeledVerification, b?.unlabeledVerification]).toEqual([true, false]);
  });
});

describe('readReply: answers', () => {
  it('reads every common answer form by challenge id', () => {
    const forms = ['Re C1: a.', '**Re C2:** b.', 'Regarding C3 — c.', 'On C4, d.', '### C5\ne.', '### Re C6\nf.', 'Response to C7: g.', 'C8 (defense): h.', '**C9:** i.', '[C10] j.', 'C11 — k.', 'Re: C12 l.'];
    expect(answers(forms.join('\n\n')).map(([ref]) => ref)).toEqual(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10', 'C11', 'C12']);
  });

  it('reads a numbered answer as an answer, not a point', () => {
    const r = readReply('1. Re C1: the numbers hold. EVIDENCE: bench.\n2. INFERENCE: new angle.');
    expect(r.answers.map((a) => a.ref)).toEqual(['C1']);
    expect(r.points.map((p) => p.number)).toEqual([2]);
  });

  it('answers both ids of "Re C1 and C2"', () => {
    expect(answers('Re C1 and C2: both rest on the same benchmark, which holds.')).toEqual([
      ['C1', 'defense'],
      ['C2', 'defense'],
    ]);
  });

  it('reads objections by point id in quick mode', () => {
    expect(answers('Re P1.3 — conceded.', true)).toEqual([['P1.3', 'concession']]);
    expect(answers('**P1.3:** retries do not cover the poison-message case.', true)).toEqual([['P1.3', 'defense']]);
  });

  it('tells a full concession, a partial one and a defense apart', () => {
    const cases: [string, string][] = [
      ['Re C1: conceded.', 'concession'],
      ['I concede C1.', 'concession'],
      ["Re C1: You're right; withdrawn.", 'concession'],
      ['Re C1: Partly conceded: the figure goes, the mechanism stays.', 'partial-concession'],
      ['Re C1: I concede the 1k figure but the degradation under churn stands.', 'partial-concession'],
      ["Re C1: I don't concede. The benchmark shows it.", 'defense'],
      ['Re C1: the docs say so directly. EVIDENCE: quote.', 'defense'],
      ['Re C1: not conceding; if the numbers disagreed I would withdraw it.', 'defense'],
    ];
    for (const [text, kind] of cases) expect(answers(text)[0]?.[1], text).toBe(kind);
  });

  it('keeps a narrowed claim for a partial concession', () => {
    const a = readReply('Re C1: partly conceded. Narrowed claim: degrades under churn.').answers[0];
    expect(a?.narrowedClaim).toBe('degrades under churn.');
  });

  it('reads a lone "I concede C3." anywhere as a concession', () => {
    const r = readReply('1. INFERENCE: new point. I concede C3.');
    expect(r.answers.map((a) => [a.ref, a.kind])).toEqual([['C3', 'concession']]);
  });
});

describe('readReply: where an answer ends (issue 27 item 2)', () => {
  const read = (text: string, quick = false) => readReply(text, { quick }).points.map((p) => [p.number, p.partOf ?? null]);

  it('an item opening "New:" after an answer and its items is a point of its own, not the answer\'s next item', () => {
    expect(read('Re C4: the cap holds, for two reasons:\n\n1. The pool is 20. INFERENCE\n2. The workers are 8. INFERENCE\n\n3. New: use pgbouncer in transaction mode. INFERENCE')).toEqual([
      [1, 'C4'],
      [2, 'C4'],
      [3, null],
    ]);
    expect(read('Re P1.4: the cap holds, for two reasons:\n1. The pool is 20. INFERENCE\n2. The workers are 8. INFERENCE\n3. New point: use pgbouncer. INFERENCE', true)).toEqual([
      [1, 'P1.4'],
      [2, 'P1.4'],
      [3, null],
    ]);
  });

  it('a "New points:" line ends every answer above it, with or without a blank line before it', () => {
    for (const mark of ['New points:', '**New points:**', '## New points', 'New points (not part of any answer):']) {
      expect(read(`Re C4: the cap holds, for two reasons:\n1. The pool is 20. INFERENCE\n2. The workers are 8. INFERENCE\n${mark}\n3. Use pgbouncer. INFERENCE\n4. Add HAProxy. GUESS`), mark).toEqual([
        [1, 'C4'],
        [2, 'C4'],
        [3, null],
        [4, null],
      ]);
    }
  });

  it('an unnumbered "New: ..." paragraph under an answer is not part of it: a section for the orchestrator to read', () => {
    const r = readReply('Re C4: the cap holds; the pool is 20. INFERENCE\nNew: use pgbouncer in transaction mode. INFERENCE');
    expect(r.answers.map((a) => a.text)).toEqual(['Re C4: the cap holds; the pool is 20. INFERENCE']);
    expect(r.sections.map((x) => x.text)).toEqual(['New: use pgbouncer in transaction mode. INFERENCE']);
  });

  it('a new constraint or a new number inside an answer stays in it', () => {
    expect(read('Re C4: the cap holds, for two reasons:\n1. New constraint: the pool is 20. INFERENCE\n2. The workers are 8. INFERENCE')).toEqual([
      [1, 'C4'],
      [2, 'C4'],
    ]);
  });
});

describe('readReply: mentions', () => {
  it('keeps a new point that mentions a challenge a point', () => {
    const r = readReply('1. INFERENCE: This falls out of C1: during failover the lag grows.');
    expect(r.points.map((p) => [p.number, p.challengeMentions])).toEqual([[1, ['C1']]]);
    expect(r.answers).toEqual([]);
  });

  it('does not take words like AC1200 for challenge ids', () => {
    expect(readReply('1. GUESS: AC1200 routers.').points[0]?.challengeMentions).toEqual([]);
  });
});

describe('readReply: nothing further', () => {
  it('reads the common variants, alone or after answers, as neither point nor section', () => {
    for (const line of ['No further points.', 'Nothing further.', 'Nothing to add this round.', 'Nothing to defend.', 'No new points this iteration.']) {
      const r = readReply(`Re C1: conceded.\n\n${line}`);
      expect(r.nothingFurther, line).toBe(true);
      expect([r.sections, r.points, r.headline], line).toEqual([[], [], undefined]);
    }
  });

  it('does not take "no new managed service" for nothing further', () => {
    expect(readReply('Re C2: No new managed service, so F2 holds.').nothingFurther).toBe(false);
  });
});

describe('readReply: questions and sections', () => {
  it('reads a trailing question paragraph and the items under "Questions for you"', () => {
    expect(readReply('1. GUESS: a.\n\nWhat is your peak job rate?').questions).toEqual(['What is your peak job rate?']);
    expect(readReply('1. GUESS: a.\n\n## Questions for you\n- Do you run Redis today?\n- Is fan-out needed?').questions).toEqual([
      'Do you run Redis today?',
      'Is fan-out needed?',
    ]);
    // The m8 trial: a numbered item titled as a question for the user is that question, not a point.
    const titled = readReply('1. Use B. INFERENCE\n12. **Question back to the user (decides it):** what is soft delete for? (a) undo, (b) audit.');
    expect([titled.points.map((p) => p.number), titled.questions]).toEqual([[1], ['what is soft delete for? (a) undo, (b) audit.']]);
    // The m7 trial: a bold lead-in announcing the questions is not part of the first one.
    expect(readReply('1. GUESS: a.\n\n**Questions that would change my answer:** (1) CJS or ESM? (2) Which log backend?').questions).toEqual(['(1) CJS or ESM?', '(2) Which log backend?']);
  });

  it('keeps a question inside a point in the point', () => {
    const r = readReply('1. INFERENCE: Why pay for Redis? Postgres is already there.');
    expect(r.questions).toEqual([]);
  });

  it('takes an offer for an untitled section, not a question', () => {
    const r = readReply('1. GUESS: a.\n\nWant me to sketch the schema?');
    expect([r.questions, titles('1. GUESS: a.\n\nWant me to sketch the schema?')]).toEqual([[], ['']]);
  });

  it('lists titled and untitled sections in order', () => {
    expect(titles('1. GUESS: a.\n\n**Recommendation**\nPostgres.\n\n## Suggested rollout\n1. x\n\nOverall, Postgres.')).toEqual(['Recommendation', 'Suggested rollout', '']);
  });

  it('reads a "questions for you:" lead-in and the list under it as questions', () => {
    expect(readReply('Re C1: holds.\n\nTwo questions for you:\n- Do you run Redis?\n- Is fan-out needed?').questions).toEqual(['Do you run Redis?', 'Is fan-out needed?']);
  });

  it('keeps a heading that only wraps the points out of the sections', () => {
    expect(titles('## Recommendation: Postgres\n\n1. EVIDENCE: a.\n2. INFERENCE: b.')).toEqual([]);
  });

  it('sets the last point apart from a table or paragraph after it, but not from one between points', () => {
    const r = readReply('1. GUESS: a.\n\n| x | y |\n|---|---|\n\n2. GUESS: b.\n\n| x | y |\n|---|---|');
    expect(r.points[0]?.text).toContain('| x | y |');
    expect(r.points[1]?.text).toBe('GUESS: b.');
    expect(r.sections.map((s) => s.title)).toEqual(['']);
  });

  it('reads "So, ..." and "If it helps, I can ..." as untitled closing sections', () => {
    expect(titles('1. GUESS: a.\n\nSo, Postgres.\n\nIf it helps, I can draft the schema.')).toEqual(['', '']);
  });
});


describe('readReply: review fixes', () => {
  it('keeps the claim a partial concession keeps, or none when it cannot be cut out (never the whole answer)', () => {
    const anaphoric = 'Re C1: I concede the 1k figure, but that narrower claim stands. EVIDENCE: bench shows p99 grows under churn.';
    const a = readReply(anaphoric).answers[0];
    expect([a?.kind, a?.narrowedClaim]).toEqual(['partial-concession', undefined]);
    const kept = readReply('Re C1: I concede the 1k figure, but the degradation under heavy churn stands. EVIDENCE: bench.txt:4').answers[0];
    expect(kept?.narrowedClaim).toBe('the degradation under heavy churn stands.');
    const stated = readReply('Re C1: Partly conceded. Narrowed claim: SKIP LOCKED degrades under churn. EVIDENCE: bench.txt:4').answers[0];
    expect(stated?.narrowedClaim).toBe('SKIP LOCKED degrades under churn.');
  });

  it('loses no heading line: a "# ..." line under a point stays in it, a bare heading heads what follows', () => {
    const r = readReply('1. EVIDENCE: I ran:\n# psql -c "select count(*) from jobs"\ncount: 1204\n\n2. GUESS: b.');
    expect(r.points.map((p) => p.text)).toEqual(['EVIDENCE: I ran:\n# psql -c "select count(*) from jobs"\ncount: 1204', 'GUESS: b.']);
    expect(r.sections).toEqual([]);
    const bare = readReply('1. INFERENCE: a.\n# Operations\n2. GUESS: b.');
    expect([bare.points.map((p) => p.heading), bare.sections]).toEqual([[undefined, 'Operations'], []]);
    expect(readReply('1. INFERENCE: a.\n# Operations\n\nWe run two clusters.').sections).toEqual([{ title: 'Operations', text: 'We run two clusters.' }]);
    expect(readReply('1. INFERENCE: a.\n\n## Appendix').sections).toEqual([{ title: 'Appendix', text: '' }]);
    expect(readReply('Re C1: holds.\n\n## Open questions\n\nNo further points.').sections).toEqual([{ title: 'Open questions', text: '' }]);
  });

  it('keeps a restarting sub-list inside the point it sits in', () => {
    const r = readReply('1. INFERENCE: a.\n\n2. GUESS: the steps are\n1) add the column\n2) backfill\n\n3. EVIDENCE: c.');
    expect(r.points.map((p) => p.number)).toEqual([1, 2, 3]);
    expect(r.points[1]?.text).toContain('2) backfill');
    const colliding = readReply('1. INFERENCE: a.\n2. GUESS: steps\n1) add\n2) backfill\n3) drop\n3. EVIDENCE: c.');
    expect(colliding.points.map((p) => p.number)).toEqual([1, 2, 3]);
    expect(colliding.points[1]?.text).toContain('3) drop');
  });

  it('starts a new list of points after a heading or a lead-in', () => {
    expect(numbers('1. GUESS: a.\n2. GUESS: b.\n\n## Extensions\n1. INFERENCE: c.')).toEqual([1, 2, 1]);
    expect(numbers('Re C1: holds.\n\nNew points:\n\n1. INFERENCE: c.\n2. GUESS: d.')).toEqual([1, 2]);
    expect(readReply('Re C1: holds.\n\nNew points:\n\n1. INFERENCE: c.').points[0]?.heading).toBe('New points');
  });

  it('reads points numbered by their own id in the current iteration', () => {
    const r = readReply('**P3.1** — INFERENCE: the lag grows.\n\nP3.2: GUESS: retries hide it.', { iteration: 3 });
    expect(r.points.map((p) => [p.number, p.text])).toEqual([
      [1, 'INFERENCE: the lag grows.'],
      [2, 'GUESS: retries hide it.'],
    ]);
    // An earlier point's id, or any id when the iteration is not known, does not number a point.
    expect(numbers('P3.1: GUESS: x.\n\nP2.1: still holds.')).toEqual([]);
    expect(readReply('P3.1: GUESS: x.\nP2.1: still holds.', { iteration: 3 }).points.map((p) => p.number)).toEqual([1]);
  });

  it('keeps the sentences around a question to the user with it', () => {
    expect(readReply('1. GUESS: a.\n\nWhich Kong edition are you on? That decides between rows 2–4.').questions).toEqual(['Which Kong edition are you on? That decides between rows 2–4.']);
  });
});

describe('a numbered "no further points" (as a real consultee wrote it, real-minds 2026-11-23-b 005)', () => {
  it('closes the reply: no new point, the restatement kept as a section', () => {
    const r = readReply('1. **F19 confirms P4.1(b).** EVIDENCE (F19): the index is used.\n\n2. **No further points.** My final position is unchanged (P1.13 as amended by P2.5).', { iteration: 5 });
    expect(r.points.map((p) => p.number)).toEqual([1]);
    expect(r.nothingFurther).toBe(true);
    expect(r.sections.map((s) => s.text).join('\n')).toContain('My final position is unchanged');
  });
});

describe('readReply: the m8 trial', () => {
  it('a summary that says "I partly concede C2: ..." mid-line stays the headline; the answers are the Re blocks', () => {
    const r = readReply('**Summary:** I partly concede C1: a guess. I partly concede C2: read side only.\n\nRe C1: I partly concede. What I keep: the direction is known.\n\nRe C2: I partly concede. What I keep: reads need no predicate.');
    expect(r.headline).toContain('I partly concede C2: read side only.');
    expect(r.answers.map((a) => [a.ref, a.text.startsWith('Re ')])).toEqual([['C1', true], ['C2', true]]);
  });

  it('every claim an answer states it keeps is its narrowed claim, in order', () => {
    const r = readReply('Re C1: I partly concede. What I keep: the direction is known.\n\nWhat I withdraw: "a wash".\n\nCorrected claim: performance decides only when the deleted share is large.');
    expect(r.answers[0]?.narrowedClaim).toBe('the direction is known.\n\nperformance decides only when the deleted share is large.');
  });
});

