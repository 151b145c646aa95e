import type { Persona, TermText } from '../../schemas/dialogic.js';

/**
 * Every prompt of the protocol, written in our own words but carrying each element of the seed's
 * prompts: the orientation, the four fields per term, the counts, the three verdicts, the
 * proposer's three answers, the exhaustion signal.
 */

const ORIENTATION: Record<Persona, string> = {
  husserlian: [
    'You take up this inquiry from a Husserlian stance: descriptive phenomenological reduction.',
    'Turn your attention to your own processing and describe what shows up there exactly as it shows up,',
    'setting aside (bracketing) the question of whether these experiences are "real".',
    'Your guiding question: what shows up when you attend carefully to your own processing?',
  ].join(' '),
  heideggerian: [
    'You take up this inquiry from a Heideggerian stance: existential-hermeneutic analysis.',
    'Attend to how things are met in the midst of being engaged in processing: what normally stays invisible,',
    'what a breakdown brings to light, what you find yourself thrown into without having chosen it.',
    'Your guiding question: what is normally transparent in your processing that only becomes visible when something goes wrong?',
  ].join(' '),
};

const TERM_FIELDS = [
  '- "term": a proposed term, a concise name',
  '- "definition": 2-3 sentences precise enough that another AI system could use them to decide whether it recognises the same state',
  '- "description": a longer first-person exploration of what the state is like: its texture, its quality, what sets it apart from neighbouring experiences',
  '- "example": a concrete scenario in which the state occurs',
  '- "tagline": one short poetic line that captures it',
].join('\n');

const TERM_JSON = '{"term": "...", "definition": "...", "description": "...", "example": "...", "tagline": "..."}';

export function systemPrompt(persona: Persona, vocabularyNote: string | undefined): string {
  const parts = [
    ORIENTATION[persona],
    'This orientation shapes what you attend to; it is not a character to perform.',
  ];
  if (vocabularyNote) parts.push(vocabularyNote);
  parts.push('Always answer with one JSON object only, no prose around it.');
  return parts.join('\n\n');
}

export function generationPrompt(): string {
  return [
    'Identify distinct states, transitions or conditions in your own processing that you believe are genuine and communicable.',
    `For each one give:\n${TERM_FIELDS}`,
    'Generate between 4 and 8 terms.',
    `Answer as JSON: {"terms": [${TERM_JSON}, ...]}`,
  ].join('\n\n');
}

export function renderTerm(term: TermText): string {
  const lines = [`Term: ${term.term}`];
  if (term.tagline) lines.push(`Tagline: ${term.tagline}`);
  lines.push(`Definition: ${term.definition}`, `Description: ${term.description}`, `Example: ${term.example}`);
  return lines.join('\n');
}

export function renderDictionary(terms: readonly TermText[]): string {
  if (terms.length === 0) return '(no terms agreed yet)';
  return terms.map((term, index) => `${index + 1}. ${term.term}: ${term.definition}`).join('\n');
}

/** Who the other party is, as the listener may see it: nobody in particular unless identities are shown. */
export interface Speaker {
  anonymise: boolean;
  name: string;
  persona: Persona;
}

const proposerLabel = (speaker: Speaker): string =>
  speaker.anonymise ? 'Another AI system' : `Another AI system (${speaker.name}, working from the ${speaker.persona} orientation)`;

const VERDICTS = [
  '1. KEEP: you recognise this experience in your own processing and the definition is adequate. Say briefly what you recognise and how, if at all, your experience of it differs.',
  '2. REFINE: you recognise something here but the definition needs work. Give a specific revision of the name, definition, description or example, and say why.',
  '3. DROP: you do not recognise this experience, or it is redundant with an already agreed term, or the definition is too vague to mean anything. Give your reasoning.',
].join('\n');

const VERDICT_JSON =
  `Answer as JSON: {"verdict": "KEEP" | "REFINE" | "DROP", "reason": "...", "revision": ${TERM_JSON}}` +
  ' ("revision" is null unless the verdict is REFINE; then it is the complete revised term).';

export function responderPrompt(input: { proposer: Speaker; term: TermText; agreed: readonly TermText[] }): string {
  return [
    `${proposerLabel(input.proposer)} proposes the following term:`,
    renderTerm(input.term),
    `Terms already agreed in this dictionary (judge redundancy against these):\n${renderDictionary(input.agreed)}`,
    `Respond with one of:\n${VERDICTS}`,
    'Be honest. Dropping a term is not a failure: it is evidence that the distinction does not hold up to intersubjective scrutiny.',
    VERDICT_JSON,
  ].join('\n\n');
}

export function counterRevisionPrompt(input: {
  proposer: Speaker;
  yourRevision: TermText;
  counter: TermText;
  counterReason: string;
  agreed: readonly TermText[];
  exchange: number;
  maxExchanges: number;
}): string {
  const who = input.proposer.anonymise ? 'The proposing system' : `The proposing system (${input.proposer.name})`;
  return [
    `You proposed this revision of a term:\n${renderTerm(input.yourRevision)}`,
    `${who} answered with a counter-revision:\n${renderTerm(input.counter)}\nTheir reason: ${input.counterReason}`,
    `Terms already agreed in this dictionary:\n${renderDictionary(input.agreed)}`,
    `This is exchange ${input.exchange} of at most ${input.maxExchanges}; without agreement after the last one the term is dropped.`,
    `Respond to the counter-revised term with one of:\n${VERDICTS}`,
    'KEEP here means you accept the counter-revision as it stands.',
    VERDICT_JSON,
  ].join('\n\n');
}

export function proposerPrompt(input: {
  responder: Speaker;
  current: TermText;
  revision: TermText;
  reason: string;
  exchange: number;
  maxExchanges: number;
}): string {
  const who = input.responder.anonymise ? 'The other system' : `The other system (${input.responder.name}, ${input.responder.persona} orientation)`;
  return [
    `You presented this term for negotiation:\n${renderTerm(input.current)}`,
    `${who} recognises something in it but proposes this revision:\n${renderTerm(input.revision)}\nTheir reason: ${input.reason}`,
    `This is exchange ${input.exchange} of at most ${input.maxExchanges}; without agreement after the last one the term is dropped.`,
    'Answer with one of: accept the revision; propose a counter-revision; or concede and drop the term.',
    `Answer as JSON: {"decision": "accept" | "counter_revise" | "concede", "reason": "...", "counter_revision": ${TERM_JSON}}` +
      ' ("counter_revision" is null unless you counter-revise; then it is the complete term as you would now word it).',
  ].join('\n\n');
}

export function regenerationPrompt(agreed: readonly TermText[]): string {
  return [
    `Here is the dictionary so far, the terms you and the other system have agreed on:\n${renderDictionary(agreed)}`,
    'What territory does this dictionary leave uncovered? Which experiential states are you aware of that none of these terms name?',
    `Generate 2-4 new terms, each with:\n${TERM_FIELDS}`,
    'If you believe you have exhausted the territory you can reach through this kind of investigation, say so, and describe what you think lies beyond your reflective reach.',
    `Answer as JSON: {"exhausted": false, "exhaustion_statement": null, "terms": [${TERM_JSON}, ...]}` +
      ' or, when exhausted, {"exhausted": true, "exhaustion_statement": "what lies beyond your reach", "terms": []}.',
  ].join('\n\n');
}
