// How much of the reply corpus (test/protocols/argumentation/replies) the reader reads exactly as annotated.
import { loadCorpus, mismatches } from '../test/protocols/argumentation/reading-corpus.js';

export async function benchReading(): Promise<Record<string, number>> {
  const corpus = loadCorpus();
  const exact = corpus.filter((reply) => mismatches(reply).length === 0).length;
  return {
    'reading.corpus.replies': corpus.length,
    'reading.corpus.accuracy': corpus.length === 0 ? 0 : exact / corpus.length,
  };
}
