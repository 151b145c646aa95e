import {
  DIALOGIC_PROTOCOL,
  type DialogicTerm,
  type ModelSlot,
  type NegotiationEntry,
  type Persona,
  type TermStatus,
  type TermText,
} from '../../schemas/dialogic.js';

/** A term as proposed in one cycle, before negotiation. */
export interface ProposedTerm {
  /** e.g. `c2-b3`: cycle 2, model B's third term. */
  id: string;
  cycle: number;
  proposer: ModelSlot;
  persona: Persona;
  text: TermText;
}

export type DropKind = 'verdict' | 'concession' | 'cap';

/** Opens the reason of an exchange that ended the term by the exchange cap; readers match it. */
export const CAP_DROP_MARK = 'Dropped by the exchange cap';
export const capDropReason = (maxExchanges: number, revisionReason: string): string =>
  `${CAP_DROP_MARK}: no agreement after ${maxExchanges} exchanges. The revision's reason: ${revisionReason}`;

export interface NegotiatedTerm {
  proposed: ProposedTerm;
  status: TermStatus;
  final: TermText;
  history: NegotiationEntry[];
  dropKind?: DropKind;
}

export const otherSlot = (slot: ModelSlot): ModelSlot => (slot === 'model_a' ? 'model_b' : 'model_a');

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.length > 0 ? slug : 'term';
}

/** The model name a spec names: after `#` for a URL spec, else after the provider prefix. */
export function modelNameFromSpec(spec: string): string {
  const hash = spec.lastIndexOf('#');
  if (hash !== -1) return spec.slice(hash + 1);
  const colon = spec.indexOf(':');
  if (colon === -1) return spec;
  return spec.slice(colon + 1) || spec.slice(0, colon);
}

export function proposedTerms(cycle: number, slot: ModelSlot, persona: Persona, texts: readonly TermText[]): ProposedTerm[] {
  const letter = slot === 'model_a' ? 'a' : 'b';
  return texts.map((text, index) => ({ id: `c${cycle}-${letter}${index + 1}`, cycle, proposer: slot, persona, text }));
}

export function toDialogicTerm(term: NegotiatedTerm, contributedBy: string, date: string): DialogicTerm {
  const { final, proposed } = term;
  return {
    term: final.term,
    slug: slugify(final.term),
    part_of_speech: final.part_of_speech || proposed.text.part_of_speech || 'noun',
    tagline: final.tagline ?? proposed.text.tagline ?? '',
    definition: final.definition,
    description: final.description,
    example: final.example,
    tags: [],
    related_terms: [],
    contributed_by: contributedBy,
    contributed_date: date,
    generation_metadata: {
      protocol: DIALOGIC_PROTOCOL,
      cycle_introduced: proposed.cycle,
      proposed_by: proposed.proposer,
      persona: proposed.persona,
      status: term.status,
      negotiation_history: term.history,
    },
  };
}

/** The text compared for edit distance: every field a negotiation can change. */
export function termFullText(term: { term: string; definition: string; description: string; example: string }): string {
  return [term.term, term.definition, term.description, term.example].join('\n');
}
