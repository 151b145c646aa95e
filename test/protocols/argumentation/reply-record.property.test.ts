import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { applyMove, readReply, replyView, startDeliberation, type MoveResult } from '../../../protocols/argumentation/index.js';
import { idsIn } from '../../../protocols/argumentation/reading/reply-answers.js';
import { replyArb } from './reply-generator.js';

// Nothing a reply says is dropped silently: every point the reader finds becomes a point of the state
// (or Not Evaluated), every answer is applied to its challenge or listed for the orchestrator.
const ctx = { now: '2026-01-01T00:00:00.000Z' };

function ok(result: MoveResult): DeliberationState {
  if (!result.ok) throw new Error(`refused: ${result.refusal.rule}: ${result.refusal.message}`);
  if (result.refused?.length) throw new Error(`items refused: ${result.refused.map((r) => `${r.item} ${r.rule}: ${r.message}`).join('; ')}`);
  return result.state;
}
const move = (s: DeliberationState, name: string, input: unknown) => ok(applyMove(s, name, input, ctx));

const VERDICTS = [
  { verdict: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' },
  { verdict: 'SKEPTICAL', flaw: 'No measurement behind the figure.' },
  { verdict: 'REJECT', flaw: 'Persistence is off by default.', claimType: 'empirical', evidence: 'redis.conf:1 save ""', terminalWhy: 'the claim states the opposite of the default' },
  { triage: 'out-of-scope', reason: 'not the question as asked' },
];
const SKEPTICAL = 1;

interface Plan {
  quick: boolean;
  /** Round-1 verdict per point (an index into VERDICTS); at least one objection so the deliberation goes on. */
  verdicts: number[];
  /** Round 2 (standard modes): per challenge 0 no answer, 1 defend, 2 concede; then a judgment of each defense. */
  second?: { answers: number[]; accept: boolean[]; newPoint: boolean };
}

const plan: fc.Arbitrary<Plan> = fc.oneof(
  fc.record({ quick: fc.constant(true), verdicts: fc.array(fc.nat(3), { minLength: 1, maxLength: 5 }) }),
  fc.record({
    quick: fc.constant(false),
    verdicts: fc.array(fc.nat(3), { minLength: 1, maxLength: 5 }),
    second: fc.option(fc.record({ answers: fc.array(fc.nat(2), { minLength: 5, maxLength: 5 }), accept: fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), newPoint: fc.boolean() }), { nil: undefined }),
  }),
);

/** A deliberation at n=2 (or n=3 after a second round) with open, dropped and settled challenges. */
function build(p: Plan): DeliberationState {
  const verdicts = p.verdicts.some((v) => v === 1 || v === 2) ? p.verdicts : [...p.verdicts, SKEPTICAL];
  let s = ok(startDeliberation({ question: 'Which queue should we adopt?', mode: p.quick ? 'quick' : 'standard' }, { ...ctx, id: 'd1' }));
  s = move(s, 'reply_record', { text: verdicts.map((_, i) => `${i + 1}. Claim ${i + 1} holds for this workload. INFERENCE`).join('\n') });
  s = move(s, 'judge', { points: verdicts.map((v, i) => ({ id: `P1.${i + 1}`, ...VERDICTS[v] })), phase: { advance: true } });
  if (!p.second) return s;
  const { answers, accept, newPoint } = p.second;
  const lines = s.challenges.map((c, i) => (answers[i] === 1 ? `Re ${c.id}: it holds under our load. INFERENCE` : answers[i] === 2 ? `I concede ${c.id}.` : '')).filter(Boolean);
  if (newPoint) lines.push('1. Extends P1.1: batching keeps the scan short. INFERENCE');
  s = move(s, 'reply_record', { text: lines.length ? lines.join('\n\n') : 'No further points.' });
  const challenges = s.challenges
    .filter((c) => c.status === 'defended')
    .map((c, i) =>
      c.type === 'SKEPTICAL'
        ? accept[i] ? { id: c.id, verdict: 'accepted', claimType: 'value', reason: 'the defense shows the load' } : { id: c.id, verdict: 'rebutted', reason: 'the load is not what was claimed' }
        : accept[i] ? { id: c.id, verdict: 'accepted', upgradeTo: 'SKEPTICAL', reason: 'the defense shows a real config' } : { id: c.id, verdict: 'rejected', evidence: 'redis.conf:1 save ""', reason: 'the config says otherwise' },
    );
  const points = s.points.filter((x) => x.iter === 2).map((x) => ({ id: x.id, ...VERDICTS[SKEPTICAL] }));
  return move(s, 'judge', { points, challenges, phase: { advance: true } });
}

/** What the consultee may name: the state's challenge ids (quick: its points), and ids that name nothing. */
function idsFor(s: DeliberationState): fc.Arbitrary<string> {
  const known = s.mode === 'quick' ? s.points.map((p) => p.id) : s.challenges.map((c) => c.id);
  const unknown = s.mode === 'quick' ? ['P1.9', 'C2'] : ['C9', 'C12'];
  return fc.constantFrom(...known, ...unknown);
}

const scenario = plan.chain((p) => {
  const state = build(p);
  return replyArb({ quick: p.quick, iteration: state.n, ids: idsFor(state) }).map((reply) => ({ state, reply }));
});

describe('reply_record (property): nothing a reply says is dropped silently', () => {
  it('the states under test are active, waiting for a reply, with challenges or objections', () => {
    fc.assert(
      fc.property(plan, (p) => {
        const s = build(p);
        expect([s.status, s.replyRecorded]).toEqual(['active', false]);
        expect(s.mode === 'quick' ? s.points.some((x) => x.status === 'contested') : s.challenges.length > 0).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('applies or lists every point, answer and mention the reading finds', () => {
    fc.assert(
      fc.property(scenario, ({ state, reply }) => {
        const { text } = reply;
        const result = applyMove(state, 'reply_record', { text }, ctx);
        if (!result.ok) throw new Error(`${result.refusal.rule}: ${result.refusal.message}\n${text}`);
        const next = result.state;
        const n = state.n;
        const reading = readReply(text, { quick: state.mode === 'quick', iteration: n });
        if (result.effects.some((e) => e.startsWith('format failure'))) {
          // Refused as a whole, said so, and asked again: nothing of it is applied.
          expect(next.points, text).toEqual(state.points);
          expect(next.n).toBe(n);
          return;
        }
        const pending = next.readings?.find((r) => r.iter === n)?.pending ?? [];

        // Every numbered point is a point of the state, P<n>.<k>; the Not Evaluated ones are listed there.
        const added = next.points.filter((x) => x.iter === n);
        expect(added.map((x) => [x.number, x.text]), text).toEqual(reading.points.map((x) => [x.number, x.text]));
        expect(new Set(added.map((x) => x.id)).size).toBe(added.length);
        for (const x of added) {
          expect(x.id).toMatch(new RegExp(`^P${n}\\.\\d+$`));
          if (x.status === 'not-evaluated') expect(next.notEvaluated.some((ne) => ne.ref === x.id), text).toBe(true);
        }
        const numbers = reading.points.map((x) => x.number);
        if (new Set(numbers).size === numbers.length && numbers.every((k) => k > 0)) expect(added.map((x) => x.id)).toEqual(numbers.map((k) => `P${n}.${k}`));

        // Every answer is applied to what it names (changed this iteration) or listed for the orchestrator.
        const listed = (ref: string) => pending.some((x) => x.kind === 'answer' && x.target === ref);
        for (const a of reading.answers) {
          if (state.mode === 'quick') {
            const before = state.points.find((x) => x.id === a.ref);
            const after = next.points.find((x) => x.id === a.ref);
            const applied = before?.status === 'contested' && (a.kind === 'concession' ? after?.status === 'dismissed' : after?.defense === a.text);
            expect(applied || listed(a.ref), `${a.ref} dropped:\n${text}`).toBe(true);
            continue;
          }
          const before = state.challenges.find((c) => c.id === a.ref);
          const after = next.challenges.find((c) => c.id === a.ref);
          const answerable = before && (before.status === 'open' || before.status === 'dropped') && before.raisedIter < n;
          const applied = answerable && after?.defense === a.text && (a.kind === 'concession' ? after.status === 'conceded' : after.status === 'defended' && after.defenseIter === n);
          expect(applied || listed(a.ref), `${a.ref} dropped:\n${text}`).toBe(true);
          if (applied && a.kind === 'partial-concession') expect([after?.partial, after?.narrowedClaim]).toEqual([true, a.narrowedClaim]);
        }

        // A challenge named inside a new point: answered elsewhere, listed as a possible defense, or, when
        // nothing is open under that id, kept on the point that names it.
        for (const x of reading.points) {
          const id = added.find((y) => y.text === x.text)?.id ?? '';
          for (const cid of x.challengeMentions) {
            const before = state.challenges.find((c) => c.id === cid);
            const after = next.challenges.find((c) => c.id === cid);
            const wasOpen = before && (before.status === 'open' || before.status === 'dropped') && before.raisedIter < n;
            const answered = wasOpen && (after?.status === 'defended' || after?.status === 'conceded');
            const asMention = pending.some((y) => y.kind === 'mention' && y.ref === id && y.target === cid);
            const kept = !wasOpen && next.points.find((y) => y.id === id)?.refs?.includes(cid);
            expect(answered || asMention || kept, `mention of ${cid} in ${id} dropped:\n${text}`).toBe(true);
          }
        }

        // Every id this reply was due to answer that its text names anywhere (headline, table, another answer, a
        // point, a closing line) is applied as an answer to it or listed in the view with the words naming it.
        const view = replyView(next) as { reading?: { target?: string; text: string }[]; conceded?: { challenge?: string; point?: string; text: string }[] };
        const inView = (id: string) => (view.reading ?? []).some((x) => x.target === id && x.text.length > 0);
        const named = new Set(idsIn(text, state.mode === 'quick'));
        if (state.mode === 'quick') {
          for (const p of state.points.filter((x) => x.status === 'contested' && x.iter < n && named.has(x.id))) {
            const after = next.points.find((x) => x.id === p.id);
            expect(after?.defense !== undefined || inView(p.id), `${p.id} named but neither applied nor listed:\n${text}`).toBe(true);
          }
        } else {
          for (const c of state.challenges.filter((x) => (x.status === 'open' || x.status === 'dropped') && x.raisedIter < n && named.has(x.id))) {
            const after = next.challenges.find((x) => x.id === c.id);
            const applied = (after?.status === 'defended' && after.defenseIter === n) || after?.status === 'conceded';
            expect(applied || inView(c.id), `${c.id} named but neither applied nor listed:\n${text}`).toBe(true);
          }
        }
        // Each concession parley applied shows the words behind it, so a misread defense can be read back.
        for (const a of reading.answers.filter((x) => x.kind === 'concession')) {
          const shown = (view.conceded ?? []).some((x) => (x.challenge === a.ref || x.point === a.ref) && x.text === a.text);
          const applied = state.mode === 'quick' ? next.points.find((x) => x.id === a.ref)?.status === 'dismissed' && state.points.find((x) => x.id === a.ref)?.status === 'contested' : next.challenges.find((x) => x.id === a.ref)?.status === 'conceded' && state.challenges.find((x) => x.id === a.ref)?.status !== 'conceded';
          if (applied) expect(shown, `${a.ref} conceded without its words:\n${text}`).toBe(true);
        }

        // No challenge waiting for this reply stays as it was; sections and questions are all listed.
        for (const c of state.challenges.filter((x) => (x.status === 'open' || x.status === 'dropped') && x.raisedIter < n)) {
          const after = next.challenges.find((x) => x.id === c.id);
          expect([after?.status, after?.droppedIter, after?.defenseIter], `${c.id} untouched:\n${text}`).not.toEqual([c.status, c.droppedIter, c.defenseIter]);
        }
        expect(pending.filter((x) => x.kind === 'section').map((x) => [x.title, x.text])).toEqual(reading.sections.map((x) => [x.title, x.text]));
        expect(pending.filter((x) => x.kind === 'question').map((x) => x.text)).toEqual(reading.questions);
      }),
      { numRuns: 300 },
    );
  });
});
