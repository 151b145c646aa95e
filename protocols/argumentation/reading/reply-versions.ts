/**
 * How a point says it is a new version of an earlier one: "Replaces P4.5: ...", "Corrected P4.5:",
 * "this replaces the snippet in P4.5", "a narrower version of P2.1". An extension ("Extends P3.2",
 * "builds on P2.1") adds to a point and replaces nothing; so does a refinement ("refines P1.12"): a real
 * consultee meant it as an addition and objected when it was read as a replacement.
 */

const ID = '(P\\d+\\.\\d+)';
// "replaces the snippet in P4.5", "corrects my earlier P2.1", "supersedes P1.3".
const VERB = `\\b(?:replac(?:es|ing|ed)|supersed(?:es|ing)|correct(?:s|ing)|narrow(?:s|ing)|revis(?:es|ing)|amend(?:s|ing)|updat(?:es|ing)|overrid(?:es|ing)|instead of)\\s+(?:[\\w'’-]+\\s+){0,5}?(?:(?:in|of|from)\\s+)?${ID}\\b`;
// "Corrected P4.5:", "Revised P3.2 —", "P4.5, corrected:", "a correction to P4.5", "a narrower version of P2.1".
const NOUN = `\\b(?:(?:corrected|revised|narrowed|updated|amended|replacement(?: for)?)\\s+${ID}|${ID},?\\s+(?:corrected|revised|narrowed|updated|amended)\\b|(?:correction|revision|replacement|update|amendment|(?:narrower|corrected|revised|new) version)\\s+(?:of|to|for)\\s+(?:my\\s+)?${ID})`;
const NEGATED = /\b(?:not|n't|never|no longer|without)\s+(?:\w+\s+){0,2}$/i;

/** Earlier point ids the text says it replaces, corrects or narrows, in order of mention. */
export function supersededIn(text: string): string[] {
  const found: { at: number; id: string }[] = [];
  for (const source of [VERB, NOUN]) {
    for (const m of text.matchAll(new RegExp(source, 'gi'))) {
      if (NEGATED.test(text.slice(Math.max(0, (m.index ?? 0) - 30), m.index))) continue;
      const id = m.slice(1).find(Boolean);
      if (id) found.push({ at: m.index ?? 0, id: id.toUpperCase() });
    }
  }
  return [...new Set(found.sort((a, b) => a.at - b.at).map((f) => f.id))];
}
