import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { buildConsulteePrompt, replyView } from '../../../protocols/argumentation/index.js';
import { advance, agreeValue, judged, points, reply, skeptical, start, withTwoPoints } from './helpers.js';

const notes = (prompt: string) => /How your last reply was read[^\n]*\n((?:- .*\n?)*)/.exec(prompt)?.[1]?.trim().split('\n') ?? [];

/**
 * The state after iteration 2's reply as the reader and the judgment (built by hand here) left it:
 * the answer to C1 holds items 1-3 (P2.1-P2.3, folded into it), the answer to C2 items 4-5 (points of
 * their own), then a list numbered from 1 again (P2.6, P2.7), an item replacing P1.4 (P2.8), a late
 * argument not evaluated (P2.9), a citation of P1.9 (no such point), an answer to C2 read unsure.
 */
function afterIteration2(): DeliberationState {
  let s = start({ mode: 'standard' });
  s = reply(s, '1. Redis persists. INFERENCE\n2. Memcached is simpler. INFERENCE\n3. Valkey exists. GUESS\n4. Use AOF. INFERENCE');
  s = judged(s, { ...points(['P1.1', skeptical], ['P1.2', { verdict: 'SKEPTICAL', flaw: 'Simpler for whom?' }], ['P1.3', agreeValue], ['P1.4', agreeValue]), ...advance });
  s = reply(s, 'Re C1: holds. INFERENCE\nRe C2: partly. INFERENCE\n1. a. GUESS\n2. b. GUESS\n3. c. GUESS\n4. d. GUESS\n5. e. GUESS\n6. f. GUESS\n7. g. GUESS\n8. Replaces P1.4: use AOF everysec. INFERENCE\n9. Use mTLS too. GUESS');
  const p = (id: string) => s.points.find((x) => x.id === id)!;
  for (const id of ['P2.1', 'P2.2', 'P2.3']) Object.assign(p(id), { partOf: 'C1', status: 'part-of-answer' });
  for (const id of ['P2.4', 'P2.5']) Object.assign(p(id), { partOf: 'C2' });
  Object.assign(p('P2.6'), { number: 1 });
  Object.assign(p('P2.7'), { number: 2 });
  Object.assign(p('P2.8'), { supersedes: 'P1.4', supersededOn: 'consultee' });
  Object.assign(p('P1.4'), { status: 'superseded', supersededBy: 'P2.8' });
  Object.assign(p('P2.9'), { status: 'not-evaluated' });
  s.notEvaluated.push({ ref: 'P2.9', reason: 'phase-violation', iter: 2 });
  const c2 = s.challenges.find((c) => c.id === 'C2')!;
  Object.assign(c2, { unclear: true, partial: true, items: ['P2.4', 'P2.5'] });
  s.challenges.find((c) => c.id === 'C1')!.items = ['P2.1', 'P2.2', 'P2.3'];
  s.readings = [{ iter: 2, nothingFurther: false, pending: [{ ref: 'R1', kind: 'reference', target: 'P1.9', text: 'as P1.9 showed' }] }];
  return { ...s, n: 3, phase: 'DEVELOPMENT', replyRecorded: false };
}

describe('how the last reply was read, told to the consultee (issue 20, one map)', () => {
  it('lists the ids its items got, the answers they belong to, replacements, Not Evaluated, unknown ids and an unclear answer, in a few lines', () => {
    const prompt = buildConsulteePrompt(afterIteration2(), 'next');
    expect(notes(prompt)).toEqual([
      '- points: P2.6, P2.7 (your 1., 2.), P2.8, P2.9',
      '- P2.1–P2.3: items of your answer to C1, judged with that answer',
      '- P2.4, P2.5: items of your answer to C2, each judged as a point of its own',
      '- P2.8 replaces P1.4; P1.4 is history now',
      '- P2.9: not evaluated (phase-violation: a new argument after CONSTRUCTIVE)',
      '- you cited "P1.9": no item has this id; cite the ids given here',
      '- your answer to C2 did not say plainly whether you give the claim up in full or keep part of it: it was read as a partial concession. Next time write "I concede C2" or "I concede C2 in part; I still claim: ..."',
    ]);
    // Before the evaluation and the challenges, so the ids are known when they are used.
    expect(prompt.indexOf('How your last reply was read')).toBeLessThan(prompt.indexOf('Open challenges'));
  });

  it('a mixed answer says which items were folded into it and which are points; the orchestrator\'s reading of a replacement says whose it is', () => {
    const s = afterIteration2();
    s.points.find((p) => p.id === 'P2.5')!.status = 'part-of-answer';
    Object.assign(s.points.find((p) => p.id === 'P2.8')!, { supersededOn: 'orchestrator' });
    const lines = notes(buildConsulteePrompt(s, 'next'));
    expect(lines).toContain('- P2.4, P2.5: items of your answer to C2; P2.5 judged with that answer, P2.4 as points of their own');
    expect(lines).toContain('- P2.8 replaces P1.4 (so the orchestrator read it); P1.4 is history now');
  });

  it('a retry and a recovered session carry the same notes; the first prompt has none but says how to number and how to replace', () => {
    const s = afterIteration2();
    const expected = notes(buildConsulteePrompt(s, 'next'));
    expect(notes(buildConsulteePrompt({ ...s, counters: { ...s.counters, consecutiveFormatFailures: 1 } }, 'retry'))).toEqual(expected);
    const { consulteeSessionId: _lost, ...lost } = s;
    const recovery = buildConsulteePrompt(lost, 'recovery');
    expect(notes(recovery)).toEqual(expected);
    // Its flow states each claim as it now stands, and replaced or folded items by id only.
    const flow = /Points so far[^\n]*\n([\s\S]*?)\n\n/.exec(recovery)![1]!;
    expect(flow).toContain('P2.8 (pending-triage):\n> Replaces P1.4: use AOF everysec. INFERENCE\n');
    expect(flow).toContain('\nP1.4: replaced by P2.8\nP2.1–P2.3: items of your answer to C1, judged with it');
    expect(flow).not.toMatch(/^P1\.4 \(|^P2\.[123] \(/m);
    const first = buildConsulteePrompt(start(), 'first');
    expect(first).not.toContain('How your last reply was read');
    expect(first).toContain('Number the items of your whole reply in one sequence (1., 2., 3., ...), items you number inside an answer included (the answer itself is not an item)');
    expect(first).toContain('To correct or replace one of your earlier points, make it a new item starting "Replaces P1.3: " followed by the whole corrected claim');
  });

  it('a plain reply gets one line: the ids of its points', () => {
    let s = start({ mode: 'standard' });
    s = judged(reply(s, '1. Redis. INFERENCE\n2. Memcached. GUESS\n3. Valkey. GUESS'), { ...points(['P1.1', agreeValue], ['P1.2', agreeValue], ['P1.3', agreeValue]), ...advance });
    expect(notes(buildConsulteePrompt(s, 'next'))).toEqual(['- points: P1.1–P1.3']);
  });

  it('quick mode: the second prompt says which ids the first reply\'s points got', () => {
    let s = start({ mode: 'quick' });
    s = judged(reply(s, '1. Redis. INFERENCE\n1. Memcached. GUESS'), { ...points(['P1.1', agreeValue], ['P1.2', { verdict: 'SKEPTICAL', flaw: 'Both are one package.' }]), ...advance });
    expect(notes(buildConsulteePrompt(s, 'next'))).toEqual(['- points: P1.1, P1.2 (your 1.)']);
  });

  it('says what each number that is no point became: an answer, a question, "No further points" (issue 27 item 3)', () => {
    let s = judged(withTwoPoints({ mode: 'standard' }), { ...points(['P1.1', skeptical], ['P1.2', agreeValue]), ...advance });
    s = reply(s, '1. Re C1: it holds, a restart loses the warm set. INFERENCE\n2. Question for you: what is the budget?\n3. Memcached has no replication. GUESS\n4. No further points.');
    s = judged(s, { ...points(['P2.3', agreeValue]), challenges: [{ id: 'C1', verdict: 'rebutted', reason: 'a warm set refills in seconds here' }], ...advance });
    expect(notes(buildConsulteePrompt(s, 'next'))).toEqual([
      '- points: P2.3',
      '- your 1.: an answer to C1, not a point (no P2.1)',
      '- your 2.: a question for the user, not a point (no P2.2)',
      '- your 4.: "No further points", not a point (no P2.4)',
    ]);
  });
});

describe('the orchestrator sees what each number that is no point became (issue 27 item 3)', () => {
  const objected = () => {
    const s = reply(start({ mode: 'quick' }), [1, 2, 3, 4, 5, 6].map((i) => `${i}. Claim ${i}. INFERENCE`).join('\n'));
    return judged(s, { ...points(['P1.1', skeptical], ['P1.2', skeptical], ['P1.3', agreeValue], ['P1.4', agreeValue], ['P1.5', agreeValue], ['P1.6', skeptical]), ...advance });
  };

  it('a quick reply numbered 1-7 whose 1., 2. and 6. answer objections says why P2.1, P2.2 and P2.6 are missing', () => {
    const view = replyView(reply(objected(), '1. Re P1.1: it holds. INFERENCE\n2. Re P1.2: it holds too. INFERENCE\n3. a. INFERENCE\n4. b. GUESS\n5. c. INFERENCE\n6. Re P1.6: I concede P1.6.\n7. d. INFERENCE\n\nNo further points'));
    expect(view.numbersNotPoints).toEqual(['1., 2., 6.: answers on P1.1, P1.2, P1.6, not points (no P2.1, P2.2, P2.6)']);
    expect((view.points as { id: string }[]).map((p) => p.id)).toEqual(['P2.3', 'P2.4', 'P2.5', 'P2.7']);
    // The unlabelled, unnumbered "No further points" is read as such, not lost.
    expect(view.nothingFurther).toBe(true);
  });

  it('a number past the last point leaves no gap among the ids: the view stays lean', () => {
    const view = replyView(reply(objected(), '1. a. INFERENCE\n2. Re P1.6: I concede P1.6.\n3. No further points'));
    expect(view.numbersNotPoints).toBeUndefined();
    expect(view.nothingFurther).toBe(true);
  });
});
