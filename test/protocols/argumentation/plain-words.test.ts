import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainWords } from '../../../protocols/argumentation/report/plain-words.js';
import { DeliberationState } from '../../../schemas/argumentation.js';

// The real reversal of ADR 0036 (scripts/real-minds): its ids exist, so plain words may rewrite them.
const state = DeliberationState.parse(JSON.parse(readFileSync(join(import.meta.dirname, 'real-minds', '2026-11-28-adr-reversal', 'state.json'), 'utf8')).value);

describe('plain words, in the forms Codex wrote them in the reversal of ADR 0036', () => {
  it('drops a label that follows a citation: "INFERENCE (from F16) —"', () => {
    expect(plainWords(state, 'INFERENCE (from F16) — The failure mode in F16 is silent.')).toBe('The failure mode in a verified fact is silent.');
  });

  it('drops a label with the sources it names: "INFERENCE (from item 4):", "INFERENCE (from F16, F16 and item 1):" (an A/B consultee\'s words)', () => {
    expect(plainWords(state, "INFERENCE (from item 4): the fallback is a deliberate trade between false 429s and leakage. 'limit / N' is wrong for any N.")).toBe(
      "the fallback is a deliberate trade between false 429s and leakage. 'limit / N' is wrong for any N.",
    );
    expect(plainWords(state, 'INFERENCE (from F16, F16 and item 1): the hardened client settings are `enableOfflineQueue:false`.')).toBe(
      'the hardened client settings are `enableOfflineQueue:false`.',
    );
  });

  it('drops a combined label and what a refinement says of the part it refines: "Refines P4.1 (on (c)): EVIDENCE + INFERENCE —"', () => {
    expect(plainWords(state, 'Refines P4.1 (on (c)): EVIDENCE + INFERENCE — I put LimitExceededException in the permanent bucket.')).toBe('I put LimitExceededException in the permanent bucket.');
  });

  it('says two ids joined by a slash as earlier points, and leaves a slash between words alone', () => {
    expect(plainWords(state, 'P2.1/P1.3 then treat it as unknown, and/or retry.')).toBe('earlier points then treat it as unknown, and/or retry.');
  });
});
