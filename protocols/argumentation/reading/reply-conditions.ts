/**
 * A concession offered on a condition gives nothing up yet: "If that passes, I drop P1.1", "I'd concede
 * only if ...", "Show me the timings and I'll withdraw it". Read as given up, it dismisses a point its
 * author still holds, so each such clause is blanked before the reader looks for words that give up.
 */

// What gives the claim up: a concession's verb, or an assent to the objection in a modal ("you'd be right", "I'd agree").
const GIVE_UP =
  /\b(?:conced\w*|concession|withdr[ae]w\w*|retract\w*|i(?:'ll|'d| will| would| can)? (?:drop|give up|abandon)|drop (?:it|this|that|the|my|[pc]\d)|give (?:it|this|that) up|let (?:it|this|that) go|(?:would|'d|will|'ll|could) (?:be right|agree|accept))\b/i;
// A condition ahead of or after it. "even if", "if only", "if reluctantly," and "if I'm honest" set none, and neither
// does "if" for "whether" ("I don't know if it ran"). Words that are conditions only opening a clause ("once",
// "provided", "assuming", "should") count only there: "ran once a day", "the data provided" are no conditions.
const IF = String.raw`(?<!\b(?:even|as|know|see|check|ask|wonder|sure|tell|clear|doubt|matter|verify|test)\s)\bif\b(?!\s+(?:only|anything|not|i'?m (?:honest|being honest)|\w+ly\s*[,;:)—–]))`;
const ANYWHERE = String.raw`${IF}|\bunless\b|\bonly (?:when|once)\b|\bas soon as\b|(?<!\bat\s)\bthe moment (?:you|someone|somebody|we|it|they|there|a|an|the|your)\b|\bwhenever\b`;
const OPENING = String.raw`(?:^|[,:;—–(]\s*)\W*(?:once(?!\s+(?:again|more|already|before)\b)|provided|assuming|should|were|had)\s+\w+`;
const CONDITION = new RegExp(`${ANYWHERE}|${OPENING}`, 'i');
// "Show me the timings and I'll withdraw it": an offer, opening its clause, for something the other side has to bring.
const ON_DEMAND =
  /(?:^|[,:;—–]\s*)\W*(?:show|give|send|post|run|prove|demonstrate|produce|point me (?:to|at))\b[^.!?;\n]{1,120}?\band\s+(?:i(?:'ll|'d| will| would| can)?|it(?:'s| is) (?:yours|withdrawn|conceded|dropped))\b/i;

// A clause: up to ".", "!", "?" or ";" before a space (so "Node 20.19" stays inside it), or a line end.
const CLAUSE = /(?:[^.!?;\n]|[.!?;](?![\s*_)"'”’]|$))+(?:[.!?;]+|$)/gm;

/** Whether the clause only offers to give the claim up on a condition not met yet. */
export function isConditionalOffer(clause: string): boolean {
  if (!GIVE_UP.test(clause)) return false;
  return CONDITION.test(clause) || ON_DEMAND.test(clause);
}

/** The text with each conditional offer blanked in place (indices into the text still hold). */
export function withoutOffers(text: string): string {
  return text.replace(CLAUSE, (clause) => (isConditionalOffer(clause) ? ' '.repeat(clause.length) : clause));
}
