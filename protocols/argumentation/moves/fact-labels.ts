import type { DeliberationState, Fact } from '../../../schemas/argumentation.js';
import { factIdsIn, normaliseChallengeId, normaliseFactId, normaliseId, normalisePointId } from '../core/references.js';

/**
 * A judgment's own new facts, cited safely. A ledger item may carry a label; elsewhere in the same judgment
 * "@label" (a premise or a factId may also give the bare label) is the id that fact actually got. An id
 * predicted instead (F8 for the first fact added) holds only while nothing before it was refused: once an
 * item is refused, every fact added after it is numbered lower than predicted, so an item citing such an id
 * is refused rather than read as another fact.
 */

export const FACT_LABEL = /^[A-Za-z][\w-]{0,39}$/;

export interface CitationRefusal {
  rule: string;
  message: string;
}

const LABEL_IN_TEXT = /(?<![\w.@])@([A-Za-z][\w-]{0,39})(?![\w-])/g;
/** Fields that hold an id and nothing else: there the bare label is the label. */
const ID_FIELDS = new Set(['premises', 'factId']);

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 59)}…` : text}"`;

export class FactCitations {
  /** Label -> the id its fact got, or the ledger item that was refused. */
  private readonly named = new Map<string, { id: string } | { refusedItem: string }>();
  /** Ledger length at the first refusal: ids above it were not predictable. */
  private stableUpTo = Infinity;
  private readonly startLength: number;

  constructor(state: DeliberationState) {
    this.startLength = state.ledger.length;
  }

  /** Why a ledger item's label cannot name its fact, or undefined. */
  badLabel(label: string | undefined, state: DeliberationState, superseding?: string): CitationRefusal | undefined {
    if (!label) return undefined;
    if (normaliseFactId(label) ?? normalisePointId(label) ?? normaliseChallengeId(label)) return { rule: 'fact-label', message: `The label "${label}" reads as an id: give a name (e.g. "aof-run"), cited elsewhere as @name.` };
    if (this.named.has(label)) return { rule: 'fact-label', message: `The label "${label}" already names a fact of this judgment: give each new fact its own label.` };
    const holder = labelledFact(state, label);
    if (holder && holder.id !== normaliseId(superseding ?? '')) return { rule: 'fact-label', message: `The label "${label}" already names ${holder.id}: give the new fact its own label.` };
    return undefined;
  }

  /** The ledger item labelled `label` added facts from `before` on: the first is the one it names. */
  added(label: string | undefined, before: number, after: DeliberationState, target?: string): string | undefined {
    if (!label) return undefined;
    const id = after.ledger[before]?.id ?? after.ledger.find((f) => f.id === normaliseId(target ?? ''))?.id;
    if (!id) return undefined;
    this.named.set(label, { id });
    return `@${label} is ${id}`;
  }

  /** An item was refused: its label (if any) names nothing, not even a fact an earlier item gave it, and ids after this point are no longer predictable. */
  refused(state: DeliberationState, item: string, label?: string): void {
    if (this.stableUpTo === Infinity) this.stableUpTo = state.ledger.length;
    if (label) this.named.set(label, { refusedItem: item });
  }

  /** The item with each label replaced by its fact's id, or why it cannot be applied as written. */
  resolve<T>(item: T, state: DeliberationState): { item: T } | { refusal: CitationRefusal } {
    const predicted = factIdsIn(JSON.stringify(item)).filter((c) => Number(c.id.slice(1)) > this.stableUpTo);
    if (predicted.length) return { refusal: this.shifted(predicted.map((c) => c.id), state) };
    let refusal: CitationRefusal | undefined;
    const label = (name: string): string | undefined => {
      const entry = this.named.get(name);
      if (entry && 'refusedItem' in entry) refusal ??= { rule: 'cited-fact-refused', message: `@${name} names the fact of ${entry.refusedItem}, which was refused: send that item again, corrected, with this one.` };
      if (entry && 'id' in entry) return entry.id;
      // A label given in an earlier judgment names its fact as it now stands.
      return entry ? undefined : labelledFact(state, name)?.id;
    };
    const walk = (value: unknown, key?: string): unknown => {
      if (typeof value === 'string') {
        const bare = key && ID_FIELDS.has(key) ? label(value.replace(/^@/, '')) : undefined;
        // A field that is a label and nothing else cites a fact: one naming none is refused, not kept as text.
        const lone = /^@([A-Za-z][\w-]{0,39})$/.exec(value.trim());
        if (lone && !bare && !label(lone[1]!)) refusal ??= { rule: 'unknown-fact-label', message: `${value.trim()} names no fact${this.knownLabels(state)}: cite the fact by its id, or label it when you add it (ledger item label "name").` };
        return bare ?? value.replace(LABEL_IN_TEXT, (whole, name: string) => label(name) ?? whole);
      }
      if (Array.isArray(value)) return value.map((v) => walk(v, key));
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
      return value;
    };
    const resolved = walk(item) as T;
    return refusal ? { refusal } : { item: resolved };
  }

  private knownLabels(state: DeliberationState): string {
    const names = [...new Set([...[...this.named.keys()], ...state.ledger.filter((f) => f.label && !f.supersededBy).map((f) => f.label!)])];
    return names.length ? ` (labels in use: ${names.map((n) => `@${n}`).join(', ')})` : '';
  }

  private shifted(ids: string[], state: DeliberationState): CitationRefusal {
    const added = state.ledger.slice(this.startLength).map((f) => `${f.id} is ${quoted(f.text)}`);
    const now = added.length ? `; this judgment's facts are: ${added.join(', ')}` : '; this judgment added no fact';
    return {
      rule: 'fact-ids-shifted',
      message: `${ids.join(', ')} would be a fact this judgment adds, but an item before it was refused, so later facts are numbered lower than predicted${now}. Cite them by label (ledger item label "name", cited as @name), or send this item again with the ids above.`,
    };
  }
}

/** The fact a label names as it now stands: the labelled fact, or the version that replaced it. */
function labelledFact(state: DeliberationState, name: string): Fact | undefined {
  let fact = state.ledger.find((f) => f.label === name && !f.supersededBy) ?? state.ledger.find((f) => f.label === name);
  const seen = new Set<string>();
  while (fact?.supersededBy && !seen.has(fact.id)) {
    seen.add(fact.id);
    fact = state.ledger.find((f) => f.id === fact!.supersededBy) ?? fact;
  }
  return fact;
}
