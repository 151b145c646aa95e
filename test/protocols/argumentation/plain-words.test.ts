import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plainWords, wholeSentenceGist } from '../../../protocols/argumentation/report/plain-words.js';
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

  it('drops combined labels that each say what they rest on: "INFERENCE (snippet) + EVIDENCE (line splitting):"', () => {
    expect(plainWords(state, 'INFERENCE (snippet) + EVIDENCE (line splitting): Option B is small.')).toBe('Option B is small.');
  });

  it('drops a combined label and what a refinement says of the part it refines: "Refines P4.1 (on (c)): EVIDENCE + INFERENCE —"', () => {
    expect(plainWords(state, 'Refines P4.1 (on (c)): EVIDENCE + INFERENCE — I put LimitExceededException in the permanent bucket.')).toBe('I put LimitExceededException in the permanent bucket.');
  });

  it('says two ids joined by a slash as earlier points, and leaves a slash between words alone', () => {
    expect(plainWords(state, 'P2.1/P1.3 then treat it as unknown, and/or retry.')).toBe('earlier points then treat it as unknown, and/or retry.');
  });
});

describe("a claim's gist, in the words of a real A/B consultee (orders-pagination, 2026-11-29)", () => {
  const claim =
    'Bottom line — none of a/b/c alone. (i) Add the composite indexes (b\'s index half); (ii) Next/Prev by keyset, uncapped, at every depth; (iii) "jump to page N" by deferred-join OFFSET, capped at a jump target of OFFSET ≤ 250,000 rows (page 5,000) as the starting value, and the real value set from their access logs (p99 of requested page, times ~1.5); (iv) past the cap, the jump box offers "jump to date". c\'s cache only as an optional "exact count" on demand.';

  it('goes on past a title-like first sentence into the claim, cut at a clause and saying where the rest is', () => {
    const gist = wholeSentenceGist(claim, 220);
    expect(gist).toMatch(/^Bottom line — none of a\/b\/c alone\. \(i\) Add the composite indexes \(b's index half\); \(ii\) Next\/Prev by keyset, uncapped, at every depth/);
    expect(gist).toMatch(/ \(the rest is in the full record\)$/);
    expect(gist.length).toBeLessThanOrEqual(220 + ' (the rest is in the full record)'.length);
  });

  it('keeps a first sentence that says enough on its own, and whole sentences after it', () => {
    expect(wholeSentenceGist('Keyset paging is immune to rows inserted at the head of the list. OFFSET is not. Deep pages ' + 'grow slower '.repeat(30) + 'each day.', 220)).toBe(
      'Keyset paging is immune to rows inserted at the head of the list. OFFSET is not.',
    );
  });
});
