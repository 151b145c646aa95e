import { stem } from './stem.js';

/**
 * What a question and a record are compared by: their words, lower-cased and stemmed, less the words
 * that say nothing about a subject. Those are English function words, the words every question
 * asks with ("should we use", "which", "how"), and the words of the MADR and adr-tools templates
 * themselves, which every record carries ("context", "considered options", "consequences").
 */
const STOP_WORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by can could
  did do does doing down during each either else etc every few for from further get gets got had has have having he her here hers him his
  how i if in into is it its itself just let like may me might more most much must my no nor not now of off on once one only or other our
  ours out over own per same shall she should since so some still such than that the their them then there these they this those
  through to too under until up upon us very via was we were what when where whether which while who whom why will with within without
  would yes yet you your
  adopt choose chose chosen decide decided decision decisions go going keep make move need needs new now option options pick prefer
  replace stay switch think use used uses using want way ways
  accepted adr adrs bad cons consequence consequences considered context deciders deprecated driver drivers good information maker makers
  neutral outcome positive negative problem pros proposed record records rejected status statement story superseded supersedes technical
  confirmation consulted informed date
  `.split(/\s+/).filter(Boolean),
);

// A folder's vocabulary is a few thousand words, each seen hundreds of times: each is stemmed once.
const known = new Map<string, string | null>();
const MAX_KNOWN = 100_000;

/** A word's term, or nothing for a stop word, a bare number or a single letter. */
export function termOf(word: string): string | null {
  const seen = known.get(word);
  if (seen !== undefined) return seen;
  const lower = word.toLowerCase();
  const stemmed = lower.length < 2 || STOP_WORDS.has(lower) || /^\d+$/.test(lower) ? null : stem(lower);
  const term = stemmed === null || STOP_WORDS.has(stemmed) ? null : stemmed;
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(word, term);
  return term;
}

/** Words are runs of letters and digits (so "row-level" is two words and "tenant's" is "tenant" and "s"). */
export const words = (text: string): string[] => text.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The distinct terms of a text, in order. */
export const termsOf = (text: string): string[] => [...new Set(words(text).map(termOf).filter((t): t is string => t !== null))];
