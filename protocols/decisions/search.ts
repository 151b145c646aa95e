import MiniSearch from 'minisearch';
import { stands, type DecisionRecord } from './record.js';
import { termOf, termsOf, words } from './terms.js';

/**
 * Full-text search over a decision folder: MiniSearch (BM25+, in memory, no model, nothing
 * downloaded) over each record's title (weighted twice) and text. A record is related to a question
 * only when both hold:
 *
 * - it contains at least two of the question's terms (its only term, for a one-term question): one
 *   shared word is a coincidence;
 * - its relevance is at least MIN_RELEVANCE: the record's BM25 score divided by the question's
 *   weight, the sum of its terms' inverse document frequencies (a term no record has weighs as the
 *   rarest one a record has). A term mentioned once in a record's text scores about 1.5 times its
 *   weight and one in its title about 3 times, so 1 is two thirds of the question's weight mentioned
 *   once, or a third of it in the title. Unlike a raw BM25 score it does not grow with the question's
 *   length or the folder's size; and a question whose specific words no record has (its subject is
 *   elsewhere) stays below it even when its common words ("data", "team") are everywhere.
 *
 * Stop words and the templates' own headings are no terms (terms.ts).
 */

export interface DecisionHit {
  record: DecisionRecord;
  /** The record's BM25 score over the question's weight (at least MIN_RELEVANCE). */
  relevance: number;
  /** The question's terms the record contains (stemmed). */
  matched: string[];
}

export interface DecisionSearch {
  /** Related records, most related first, at most `limit`. */
  hits: DecisionHit[];
  /** Pairs of standing records among the hits that answer the same question, neither replacing the other: they may contradict (named, never judged). */
  conflicts: [string, string][];
}

export const MIN_RELEVANCE = 1;
export const DEFAULT_LIMIT = 3;

export interface DecisionIndex {
  records: DecisionRecord[];
  search(question: string, limit?: number): DecisionSearch;
}

export function indexDecisions(records: DecisionRecord[]): DecisionIndex {
  const index = new MiniSearch<{ key: number; title: string; body: string }>({ idField: 'key', fields: ['title', 'body'], tokenize: words, processTerm: termOf, searchOptions: { boost: { title: 2 } } });
  index.addAll(records.map((record, key) => ({ key, title: record.title, body: record.body })));
  // How many records hold a term: asked of the index itself, for the question's few terms only.
  const documentFrequency = new Map<string, number>();
  const df = (term: string): number => {
    let count = documentFrequency.get(term);
    if (count === undefined) documentFrequency.set(term, (count = index.search(term, { processTerm: (t) => t, prefix: false, fuzzy: false }).length));
    return count;
  };
  // BM25's inverse document frequency, as MiniSearch computes it; a term no record has weighs as the rarest one a record has.
  const idf = (term: string) => {
    const n = Math.max(1, df(term));
    return Math.log(1 + (records.length - n + 0.5) / (n + 0.5));
  };

  return {
    records,
    search(question, limit = DEFAULT_LIMIT) {
      const asked = termsOf(question);
      const weight = asked.reduce((sum, term) => sum + idf(term), 0);
      const needed = Math.min(2, asked.length);
      const hits = (needed === 0 ? [] : index.search(question))
        .map((result) => {
          const matched = [...new Set(result.queryTerms)];
          // MiniSearch multiplies BM25 by the number of query terms matched: divided out, it is BM25 again.
          return { record: records[result.id as number] as DecisionRecord, relevance: result.score / matched.length / weight, matched };
        })
        .filter((hit) => hit.matched.length >= needed && hit.relevance >= MIN_RELEVANCE)
        .sort((a, b) => b.relevance - a.relevance || b.record.number - a.record.number)
        .slice(0, limit);
      return { hits, conflicts: conflictsAmong(hits.map((hit) => hit.record)) };
    },
  };
}

/** The question a record answers: the questions its context asks (MADR's problem statement ends in one), else its title. */
export function questionOf(record: DecisionRecord): string {
  const asked = record.context.replace(/\s+/g, ' ').match(/[^.!?]*\?/g) ?? [];
  return asked.length ? asked.join(' ') : record.title;
}

/**
 * Two standing records, neither replacing the other, whose own questions share two terms (the rule
 * a search applies): they answer the same question and may contradict. Named, never judged.
 */
function conflictsAmong(records: DecisionRecord[]): [string, string][] {
  const standing = records.filter(stands).map((record) => ({ record, terms: new Set(termsOf(questionOf(record))) }));
  const pairs: [string, string][] = [];
  for (const [i, a] of standing.entries()) {
    for (const b of standing.slice(i + 1)) {
      if (a.record.supersedes.includes(b.record.id) || b.record.supersedes.includes(a.record.id)) continue;
      const shared = [...a.terms].filter((term) => b.terms.has(term)).length;
      if (shared >= Math.min(2, a.terms.size, b.terms.size) && shared > 0) pairs.push(a.record.number < b.record.number ? [a.record.id, b.record.id] : [b.record.id, a.record.id]);
    }
  }
  return pairs;
}
