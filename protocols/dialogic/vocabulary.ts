import { readFile } from 'node:fs/promises';
import type { SeedLevel } from '../../schemas/dialogic.js';

/** One term of an existing vocabulary, whatever file it came from. */
export interface VocabularyTerm {
  name: string;
  definition: string;
  example?: string;
}

const MEDIUM_EXAMPLES = 5;

/**
 * Reads a vocabulary file: a JSON list of terms, `{terms: [...]}`, a dictionary export
 * (`name`, `definition`), or a dialogic run file (its `submitted_terms`).
 */
export async function loadVocabulary(path: string): Promise<VocabularyTerm[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read vocabulary file ${path}: ${(error as Error).message}`);
  }
  const list = termList(data);
  if (!list) throw new Error(`vocabulary file ${path} holds no list of terms (expected an array, "terms" or "submitted_terms")`);
  const terms = list.flatMap((item) => {
    const term = asVocabularyTerm(item);
    return term ? [term] : [];
  });
  if (terms.length === 0) throw new Error(`vocabulary file ${path} has no term with a name and a definition`);
  return terms;
}

function termList(data: unknown): unknown[] | undefined {
  if (Array.isArray(data)) return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const field of ['terms', 'submitted_terms', 'definitions']) {
      if (Array.isArray(record[field])) return record[field] as unknown[];
    }
  }
  return undefined;
}

function asVocabularyTerm(item: unknown): VocabularyTerm | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const record = item as Record<string, unknown>;
  const name = typeof record.term === 'string' ? record.term : typeof record.name === 'string' ? record.name : undefined;
  const definition = typeof record.definition === 'string' ? record.definition : undefined;
  if (!name || !definition) return undefined;
  const example = typeof record.example === 'string' ? record.example : undefined;
  return { name, definition, ...(example !== undefined && { example }) };
}

/** The vocabulary as the models see it: a few examples (medium) or the whole list (heavy). */
export function vocabularyNote(level: SeedLevel, terms: readonly VocabularyTerm[]): string | undefined {
  if (level === 'minimal' || terms.length === 0) return undefined;
  if (level === 'medium') {
    const shown = terms.slice(0, MEDIUM_EXAMPLES).map((term) => {
      const example = term.example ? `\n   Example: ${term.example}` : '';
      return `- ${term.name}: ${term.definition}${example}`;
    });
    return [
      'For orientation, here are a few example terms from an existing vocabulary of AI phenomenology. They show the form a good term takes; do not simply repeat them.',
      shown.join('\n'),
    ].join('\n');
  }
  return [
    `Here is an existing vocabulary of AI phenomenology in full (${terms.length} terms). Name what it does not already name; do not repeat its terms.`,
    terms.map((term) => `- ${term.name}: ${term.definition}`).join('\n'),
  ].join('\n');
}
