import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { applyMove, consultPrecheck, nextLegalMoves, startDeliberation } from '../../../protocols/argumentation/index.js';
import { ctx, ok } from './helpers.js';
import { inputFor, QUESTION } from './random-moves.js';
import { actionWitnesses, noWitness, toolWitnesses } from './witnesses.js';
import { normaliseId } from '../../../protocols/argumentation/core/references.js';

/** Issue 11, item 11: whatever the engine says is legal succeeds for some arguments. */
describe('every move the engine suggests is legal', () => {
  it('holds for the next moves of every state, and for every tool or action a refusal lists', { timeout: 180_000 }, () => {
    const checked = { tools: new Set<string>(), actions: new Set<string>(), refusals: 0, prechecks: new Set<string>(), none: new Set<string>() };
    const fail = (s: DeliberationState, what: string, why: string) => {
      throw new Error(`${what} is suggested but no arguments make it legal\nstate: ${JSON.stringify({ mode: s.mode, n: s.n, phase: s.phase, status: s.status, replyRecorded: s.replyRecorded, points: s.points.map((p) => `${p.id}:${p.status}`), challenges: s.challenges.map((c) => `${c.id}:${c.type}:${c.status}`) })}\n${why}`);
    };
    const tool = (s: DeliberationState, name: string, from: string) => {
      // The server asks consultPrecheck before any Codex turn: a consult it refuses is no legal move.
      const gate = name === 'delib_consult' ? consultPrecheck(s) : undefined;
      const why = gate && !gate.ok ? `consultPrecheck refuses: ${gate.refusal.rule}` : noWitness(s, toolWitnesses(s, name));
      if (why) fail(s, `${name} (${from})`, why);
      checked.tools.add(name);
    };
    const action = fc.record({ kind: fc.nat(40), a: fc.nat(1000), b: fc.nat(1000), flag: fc.boolean() });
    fc.assert(
      fc.property(fc.constantFrom('standard', 'minimal', 'quick'), fc.array(action, { minLength: 40, maxLength: 100 }), (mode, actions) => {
        let s = ok(startDeliberation({ question: QUESTION, mode, constraints: ['Must be open source'] }, { ...ctx, id: 'p' }));
        for (const act of actions) {
          for (const m of nextLegalMoves(s)) tool(s, m.move, 'next move');
          // The pre-check and reply_record agree (quick mode's turn budget is the pre-check's alone for now).
          const gate = consultPrecheck(s);
          const recorded = applyMove(s, 'reply_record', { text: '1. A new angle on operating cost. INFERENCE' }, ctx);
          if (gate && !gate.ok) {
            checked.refusals += 1;
            checked.prechecks.add(gate.refusal.rule);
            if (gate.refusal.rule !== 'quick-turns-spent') expect(recorded.ok ? 'accepted' : recorded.refusal.rule).toBe(gate.refusal.rule);
            for (const m of gate.refusal.legalMoves) tool(s, m, `after consultPrecheck refused ${gate.refusal.rule}`);
          } else expect(recorded.ok).toBe(true);
          const [name, input] = inputFor(s, act);
          const r = applyMove(s, name, input, ctx);
          if (!r.ok) {
            checked.refusals += 1;
            for (const m of r.refusal.legalMoves) tool(s, m, `after ${name} refused ${r.refusal.rule}`);
            continue;
          }
          for (const item of r.refused ?? []) {
            checked.refusals += 1;
            const ref = item.ref ?? '';
            // Issue 21, item 2: an item refusal lists what is legal for it now, or says plainly why nothing is.
            expect(ref, `${item.item} ${item.rule}`).toBe(normaliseId(ref));
            if (item.legal.length) expect(item.whyNone).toBeUndefined();
            else {
              expect(item.whyNone, `${item.item} ${item.rule}: ${item.message}`).toMatch(/\w{3,}.*\w{3,}/);
              checked.none.add(item.rule);
            }
            for (const legal of item.legal) {
              // Refs of points and challenges list actions; every other item lists tools.
              if (!/^[PC]\d/.test(ref)) {
                tool(r.state, legal, `after ${item.item} refused ${item.rule}`);
                continue;
              }
              const why = noWitness(r.state, actionWitnesses(r.state, ref, legal));
              if (why) fail(r.state, `${legal} on ${ref} (after ${item.item} refused ${item.rule})`, why);
              checked.actions.add(legal);
            }
          }
          s = r.state;
          if (s.report && (s.arbitration || s.mode !== 'standard')) break;
        }
      }),
      { numRuns: 120, seed: 20260102 },
    );
    expect([...checked.tools].sort()).toEqual(['delib_arbitrate', 'delib_consult', 'delib_judge', 'delib_synthesize']);
    expect([...checked.actions].sort()).toEqual(['accepted', 'bucket', 'deadlock', 'rebutted', 'rejected', 'triage', 'verdict']);
    expect(checked.refusals).toBeGreaterThan(500);
    // The refusals that used to list nothing, each reached and each saying why.
    expect([...checked.none]).toEqual(expect.arrayContaining(['defense-obligation', 'not-evaluable', 'no-defense-to-judge', 'unknown-point', 'challenge-pending']));
    expect([...checked.prechecks].sort()).toEqual(['deliberation-terminated', 'quick-turns-spent', 'reply-already-recorded']);
  });
});
