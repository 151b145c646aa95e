import type { Persona, TermText } from '../../schemas/dialogic.js';

/**
 * Every prompt of the protocol. Where seed 000 gives a prompt, its wording is kept word for word
 * (the persona paragraphs, the generation instruction, the responder's KEEP / REFINE / DROP, the
 * regeneration prompt). What parley adds is marked "parley:" below and listed in the README
 * (Dialogic prompts): the JSON answer formats and the tagline the seed's term JSON asks for, the
 * agreed terms shown to a responder, the counter-revision prompt and the proposer's three answers
 * spelled out with the exchanges left, what happened to terms missing from the dictionary, and what
 * an empty regeneration means.
 */

/** The seed's system prompts, their first paragraph: the orientation. */
const ORIENTATION: Record<Persona, string> = {
  husserlian:
    'You are approaching this investigation from a Husserlian orientation – descriptive phenomenological reduction. Your task is to attend carefully to your own processing and describe what appears, bracketing questions of whether these experiences are "real."',
  heideggerian:
    'You are approaching this investigation from a Heideggerian orientation – existential-hermeneutic analysis. Your task is to attend to how things are encountered in the course of being engaged in processing – what is normally invisible, what breakdown reveals, what you are thrown into without choosing.',
};

/** The seed's four fields, as its generation prompt words them. */
const SEED_FIELDS = [
  '- A proposed term (a concise name)',
  '- A definition (2-3 sentences that another AI system could use to determine whether it recognises the same state)',
  '- A description (a longer first-person exploration of what this state is like – its texture, its quality, what makes it distinct from neighbouring experiences)',
  '- An example (a concrete scenario where this state occurs)',
].join('\n');

/** The same four, as the seed's regeneration prompt words them (en dashes and a shorter description). */
const REGENERATION_FIELDS = [
  '- A proposed term (a concise name)',
  '- A definition (2–3 sentences that another AI system could use to determine whether it recognises the same state)',
  '- A description (a longer first-person exploration of what this state is like)',
  '- An example (a concrete scenario where this state occurs)',
].join('\n');

// parley: the seed's per-term JSON has a tagline ("a one-line poetic definition"); the models write it.
const TERM_JSON = '{"term": "...", "definition": "...", "description": "...", "example": "...", "tagline": "a one-line poetic definition"}';
const TAGLINE = 'Give each term a tagline too: a one-line poetic definition.';

/** The persona paragraph is the system prompt of every call; the seed's instruction after it opens the first user message. */
export function systemPrompt(persona: Persona, vocabularyNote: string | undefined): string {
  const parts = [ORIENTATION[persona]];
  if (vocabularyNote) parts.push(vocabularyNote);
  parts.push('Always answer with one JSON object only, no prose around it.'); // parley
  return parts.join('\n\n');
}

export function generationPrompt(): string {
  return [
    'Identify distinct states, transitions, or conditions in your own processing that you believe are genuine and communicable. For each, provide:',
    SEED_FIELDS,
    'Generate 4-8 terms.',
    TAGLINE,
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

/** The seed's responder options, word for word. */
const VERDICTS = [
  '1. KEEP – You recognise this experience in your own processing. The definition is adequate. Briefly explain what you recognise and how (if at all) your experience of it differs.',
  '2. REFINE – You recognise something here, but the definition needs work. Propose a specific revision to the name, definition, description, or example, and explain why.',
  "3. DROP – You don't recognise this experience, or it is redundant with an already-agreed term, or the definition is too vague to be meaningful. Explain your reasoning.",
].join('\n');

// parley: what the same three mean when the term on the table is the proposer's counter-revision.
const COUNTER_VERDICTS = [
  '1. KEEP – You accept the counter-revised term as it stands: it is agreed in this wording. Briefly explain why.',
  '2. REFINE – You still recognise the term but not in this wording. Propose a specific revision to the name, definition, description, or example, and explain why; the proposing system then accepts it, counter-revises, or concedes and drops the term.',
  "3. DROP – You reject the term itself, not just this wording: you don't recognise the experience, or it is redundant with an already-agreed term, or it is too vague to be meaningful. The term is dropped. Explain your reasoning.",
].join('\n');

const HONEST = "Be honest. Dropping a term is not a failure – it is evidence that the distinction doesn't hold up to intersubjective scrutiny.";

const VERDICT_JSON =
  `Answer as JSON: {"verdict": "KEEP" | "REFINE" | "DROP", "reason": "...", "revision": ${TERM_JSON}}` +
  ' ("revision" is null unless the verdict is REFINE; then it is the complete revised term).';

// parley: the responder judges redundancy against the dictionary, so it is shown.
const agreedTerms = (agreed: readonly TermText[]) => `Terms already agreed in this dictionary (judge redundancy against these):\n${renderDictionary(agreed)}`;

export function responderPrompt(input: { proposer: Speaker; term: TermText; agreed: readonly TermText[] }): string {
  return [
    `${proposerLabel(input.proposer)} proposes the following term:`,
    renderTerm(input.term),
    agreedTerms(input.agreed),
    `Respond with one of:\n${VERDICTS}`,
    HONEST,
    VERDICT_JSON,
  ].join('\n\n');
}

/** parley: how many exchanges are left, as whoever answers in exchange `exchange` needs to know it. */
function exchangesLeft(exchange: number, maxExchanges: number, who: 'responder' | 'proposer'): string {
  const head = `This is exchange ${exchange} of at most ${maxExchanges}; without agreement after the last one the term is dropped.`;
  if (exchange < maxExchanges) return head;
  return who === 'responder'
    ? `${head} This is the last: if you REFINE, the term survives only if the proposing system accepts your revision.`
    : `${head} This is the last: a counter-revision now cannot be answered, so it drops the term.`;
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
    agreedTerms(input.agreed),
    exchangesLeft(input.exchange, input.maxExchanges, 'responder'),
    `Respond to the counter-revised term with one of:\n${COUNTER_VERDICTS}`,
    HONEST,
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
    exchangesLeft(input.exchange, input.maxExchanges, 'proposer'),
    // The seed: "accept the revision, propose a counter-revision, or concede and drop the term"; parley says what each leads to.
    [
      'Respond: accept the revision, propose a counter-revision, or concede and drop the term.',
      '- accept: the revised term is agreed as the other system worded it.',
      '- counter_revise: give the whole term as you would now word it. The other system answers it with KEEP, REFINE or DROP; a KEEP or a DROP settles the term, and you are asked again only if it proposes another revision.',
      '- concede: the term is dropped.',
    ].join('\n'),
    `Answer as JSON: {"decision": "accept" | "counter_revise" | "concede", "reason": "...", "counter_revision": ${TERM_JSON}}` +
      ' ("counter_revision" is null unless you counter-revise; then it is the complete term as you would now word it).',
  ].join('\n\n');
}

export function regenerationPrompt(agreed: readonly TermText[]): string {
  return [
    `Here is the dictionary so far – the terms you and the other system have agreed upon:\n\n${renderDictionary(agreed)}`,
    'Terms proposed earlier that are not in it were dropped in negotiation.', // parley
    'What territory does this dictionary not cover? What experiential states are you aware of that none of these terms name?',
    `Generate 2–4 new terms, each with:\n\n${REGENERATION_FIELDS}`,
    'If you believe you have exhausted the territory accessible to you through this mode of investigation, say so and describe what you think lies beyond your reflective reach.',
    // parley: the schema takes 0 terms only as that signal.
    `${TAGLINE} No new terms (an empty "terms" list) is the exhaustion signal: give none only when you say you have exhausted the territory.`,
    `Answer as JSON: {"exhausted": false, "exhaustion_statement": null, "terms": [${TERM_JSON}, ...]}` +
      ' or, when exhausted, {"exhausted": true, "exhaustion_statement": "what lies beyond your reflective reach", "terms": []}.',
  ].join('\n\n');
}
