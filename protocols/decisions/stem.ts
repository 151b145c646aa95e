/**
 * Porter's stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980), so that a question
 * about "translating" finds the record on "translations" and "tenants'" finds "tenant". The
 * search library ships none; the algorithm is short and fixed, and its published examples are the
 * test (test/protocols/decisions/stem.test.ts).
 */

const isConsonant = (word: string, i: number): boolean => {
  const c = word[i];
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false;
  return c === 'y' ? i === 0 || !isConsonant(word, i - 1) : true;
};

/** m in [C](VC)^m[V]: how many vowel-consonant sequences the stem has. */
function measure(stem: string): number {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (stem: string): boolean => [...stem].some((_, i) => !isConsonant(stem, i));
const endsDoubleConsonant = (w: string): boolean => w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1);
/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
const endsCvc = (w: string): boolean => {
  const n = w.length;
  return n >= 3 && isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !'wxy'.includes(w[n - 1] ?? '');
};

/** The first suffix of `rules` the word ends with is replaced when its stem has measure > `minMeasure`; no other is tried. */
function replaceSuffix(word: string, rules: readonly (readonly [string, string])[], minMeasure: number): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > minMeasure ? stem + replacement : word;
  }
  return word;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'], ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'],
  ['eli', 'e'], ['ousli', 'ous'], ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'], ['fulness', 'ful'],
  ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
];
const STEP3: [string, string][] = [['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']];
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

function step1(word: string): string {
  let w = word;
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);

  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith('ed') ? 'ed' : w.endsWith('ing') ? 'ing' : undefined;
    const stem = suffix ? w.slice(0, -suffix.length) : '';
    if (suffix && hasVowel(stem)) {
      w = stem;
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (endsDoubleConsonant(w) && !/[lsz]$/.test(w)) w = w.slice(0, -1);
      else if (measure(w) === 1 && endsCvc(w)) w += 'e';
    }
  }
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
}

function step4(word: string): string {
  // The longest suffix the word ends with (the list is read as Porter orders it, by its penultimate letter).
  const suffix = STEP4.filter((s) => word.endsWith(s)).sort((a, b) => b.length - a.length)[0];
  if (!suffix) return word;
  const stem = word.slice(0, -suffix.length);
  if (suffix === 'ion' && !/[st]$/.test(stem)) return word;
  return measure(stem) > 1 ? stem : word;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

/** The stem of a lower-case word; words of one or two letters are their own stem. */
export function stem(word: string): string {
  if (word.length <= 2) return word;
  return step5(step4(replaceSuffix(replaceSuffix(step1(word), STEP2, 0), STEP3, 0)));
}
