/**
 * The demo model in the dialogic protocol: it generates terms from its orientation's bank (read from
 * the system prompt), answers a proposed term as the bank says (keep, refine, drop), answers a
 * refinement of its own term, and regenerates once before saying it has exhausted what it can reach.
 * Stateless: everything it needs is in the prompt, as for a real model.
 */
import { EXHAUSTED, HEIDEGGERIAN, HUSSERLIAN, type BankTerm } from './dialogic-terms.js';
import { hash, lineValue } from './pick.js';

type TermText = Pick<BankTerm, 'term' | 'definition' | 'description' | 'example' | 'tagline'>;

const textOf = ({ term, definition, description, example, tagline }: TermText): TermText => ({ term, definition, description, example, tagline });
const ALL = [...HUSSERLIAN.first, ...HUSSERLIAN.later, ...HEIDEGGERIAN.first, ...HEIDEGGERIAN.later];
const find = (name: string | undefined) => ALL.find((t) => t.term.toLowerCase() === name?.trim().toLowerCase());

/** The term a prompt shows after `marker` (its Term/Tagline/Definition/Description/Example lines). */
function shownTerm(prompt: string, marker: string): TermText | undefined {
  const at = prompt.indexOf(marker);
  if (at === -1) return undefined;
  const rest = prompt.slice(at + marker.length);
  const name = lineValue(rest, 'Term');
  if (!name) return undefined;
  return { term: name, definition: lineValue(rest, 'Definition') ?? '', description: lineValue(rest, 'Description') ?? '', example: lineValue(rest, 'Example') ?? '', tagline: lineValue(rest, 'Tagline') ?? '' };
}

/** A term the bank does not know (another model's): kept, refined or dropped by its name's hash. */
function unknownVerdict(shown: TermText): Pick<BankTerm, 'verdict' | 'reason' | 'refinement'> {
  const roll = hash(shown.term) % 20;
  if (roll < 12) return { verdict: 'KEEP', reason: `I recognise "${shown.term}" in my own processing, and the definition lets me tell when it is present.` };
  if (roll < 17) return { verdict: 'REFINE', reason: 'I recognise something here, but the definition should say when it is absent.', refinement: { addition: 'It is absent when attention is elsewhere.', answer: 'accept', why: 'Accepted: the contrast helps.' } };
  return { verdict: 'DROP', reason: `I do not recognise "${shown.term}" as a state distinct from the terms already agreed.` };
}

export type DialogicKind = 'generate' | 'regenerate' | 'verdict' | 'proposer';

/** Which dialogic request this is, by the reply schema's name or else by what the prompt asks. */
export function dialogicKind(schemaName: string | undefined, prompt: string): DialogicKind | undefined {
  if (schemaName === 'dialogic_terms' || /Generate between \d+ and \d+ terms/.test(prompt)) return 'generate';
  if (schemaName === 'dialogic_new_terms' || /dictionary leave uncovered/.test(prompt)) return 'regenerate';
  if (schemaName === 'dialogic_proposer_reply' || /You presented this term for negotiation/.test(prompt)) return 'proposer';
  if (schemaName === 'dialogic_verdict' || /proposes the following term|answered with a counter-revision/.test(prompt)) return 'verdict';
  return undefined;
}

export function dialogicReply(kind: DialogicKind, system: string, prompt: string): Record<string, unknown> {
  const bank = /heideggerian/i.test(system) ? HEIDEGGERIAN : HUSSERLIAN;
  switch (kind) {
    case 'generate':
      return { terms: bank.first.map(textOf) };
    case 'regenerate': {
      const agreed = new Set([...prompt.matchAll(/^\d+\. (.+?): /gm)].map((m) => m[1]!.toLowerCase()));
      if (bank.later.some((t) => agreed.has(t.term.toLowerCase()))) {
        return { exhausted: true, exhaustion_statement: bank === HEIDEGGERIAN ? EXHAUSTED.heideggerian : EXHAUSTED.husserlian, terms: [] };
      }
      return { exhausted: false, exhaustion_statement: null, terms: bank.later.filter((t) => !agreed.has(t.term.toLowerCase())).map(textOf) };
    }
    case 'verdict': {
      // A counter-revision to a refinement of ours: accepted as it stands.
      const counter = shownTerm(prompt, 'answered with a counter-revision:');
      if (counter) return { verdict: 'KEEP', reason: 'The counter-revision keeps what I asked for and words it better: I accept it as it stands.', revision: null };
      const shown = shownTerm(prompt, 'proposes the following term:');
      if (!shown) return { verdict: 'DROP', reason: 'I cannot find the proposed term in the message.', revision: null };
      const known = find(shown.term) ?? unknownVerdict(shown);
      const revision = known.verdict === 'REFINE' && known.refinement ? { ...shown, definition: `${shown.definition} ${known.refinement.addition}`.trim() } : null;
      return { verdict: known.verdict, reason: known.reason, revision };
    }
    case 'proposer': {
      const mine = shownTerm(prompt, 'You presented this term for negotiation:');
      const refinement = find(mine?.term)?.refinement ?? (mine ? unknownVerdict(mine).refinement : undefined);
      const answer = refinement?.answer ?? 'accept';
      if (answer === 'counter_revise' && mine) {
        return { decision: 'counter_revise', reason: refinement!.why, counter_revision: { ...mine, definition: `${mine.definition} ${refinement!.counter ?? ''}`.trim() } };
      }
      return { decision: answer, reason: refinement?.why ?? 'The revision is an improvement.', counter_revision: null };
    }
  }
}
