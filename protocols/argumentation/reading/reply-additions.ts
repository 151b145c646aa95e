/**
 * New content inside an answer that gives something up: "I still claim X, and also that Y", "In
 * addition, Y". What follows such a marker is no part of the claim kept but a new argument, for the
 * phase rule to admit or not like any other; left in the kept claim, it would vanish the moment the
 * orchestrator states that claim in its own words.
 */

// The rest of the sentence after the marker (a label after it included), up to the line's end at most.
const REST = '((?:[^\\n]*?[.!?](?=\\s|$)|[^\\n]*$)(?:[ \\t]+[*_]*(?:EVIDENCE|INFERENCE|GUESS)\\b[*_.]*)?)';
// Mid-sentence: "..., and also that Y", "... and also that Y".
const MID = new RegExp(`(?:,\\s*and also(?:\\s+that)?|\\s+and also that)\\s+${REST}`, 'gi');
// Opening a sentence: "In addition, Y", "Separately: Y", "On top of that, Y".
const LEAD = new RegExp(`(^|[.!?]\\s+|\\n[ \\t]*)(?:in addition|additionally|separately|beyond (?:this|that)|on top of (?:this|that)|as a new point)(?: to (?:this|that))?[,:—–]?\\s+${REST}`, 'gim');

const words = (s: string): number => s.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;

/** The answer without its new content, and each new argument in it (three words at least: "and also that" alone says nothing). */
export function splitAdditions(text: string): { kept: string; added: string[] } {
  const added: string[] = [];
  const take = (whole: string, keep: string, rest: string): string => {
    if (words(rest) < 3) return whole;
    added.push(rest.trim());
    return keep;
  };
  const kept = text.replace(MID, (whole: string, rest: string) => take(whole, '.', rest)).replace(LEAD, (whole: string, before: string, rest: string) => take(whole, before, rest));
  return { kept, added };
}
