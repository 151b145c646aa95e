import { z } from 'zod';
import { readRun } from './read-run.js';
import { slugify } from './terms.js';

/**
 * Submitted terms in the published dictionary's own term format (its `terms/{slug}.json`),
 * whose field names differ from the seed's per-term schema.
 */
export const DictionaryTerm = z.object({
  name: z.string(),
  slug: z.string(),
  word_type: z.string(),
  tagline: z.string(),
  definition: z.string(),
  longer_description: z.string(),
  example: z.string(),
  tags: z.array(z.string()),
  related_terms: z.array(z.object({ name: z.string(), slug: z.string() })),
  contributed_by: z.string(),
  contributed_date: z.string(),
});
export type DictionaryTerm = z.infer<typeof DictionaryTerm>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

export function exportDictionaryTerms(runFile: unknown): DictionaryTerm[] {
  const { run } = readRun(runFile);
  return run.submitted_terms.map((term) =>
    DictionaryTerm.parse({
      name: term.term,
      slug: text(term.slug) || slugify(term.term),
      word_type: text(term.part_of_speech) || 'noun',
      tagline: text(term.tagline),
      definition: term.definition,
      longer_description: term.description,
      example: term.example,
      tags: Array.isArray(term.tags) ? term.tags.filter((tag): tag is string => typeof tag === 'string') : [],
      related_terms: (Array.isArray(term.related_terms) ? term.related_terms : []).flatMap((related: unknown) => {
        if (typeof related === 'string') return [{ name: related, slug: slugify(related) }];
        if (related && typeof related === 'object' && typeof (related as { name?: unknown }).name === 'string') {
          const name = (related as { name: string }).name;
          return [{ name, slug: text((related as { slug?: unknown }).slug) || slugify(name) }];
        }
        return [];
      }),
      contributed_by: text(term.contributed_by),
      contributed_date: text(term.contributed_date),
    }),
  );
}
