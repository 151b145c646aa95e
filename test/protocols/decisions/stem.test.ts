import { describe, expect, it } from 'vitest';
import { stem } from '../../../protocols/decisions/stem.js';

// The examples of Porter's paper (1980), step by step, and the words the decision search leans on.
const PAPER: [string, string][] = [
  ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'],
  ['feed', 'feed'], ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'], ['sing', 'sing'],
  ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'], ['tanned', 'tan'], ['falling', 'fall'],
  ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'], ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'],
  ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'], ['valenci', 'valenc'], ['hesitanci', 'hesit'],
  ['digitizer', 'digit'], ['conformabli', 'conform'], ['radicalli', 'radic'], ['differentli', 'differ'], ['vileli', 'vile'],
  ['analogousli', 'analog'], ['vietnamization', 'vietnam'], ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'],
  ['decisiveness', 'decis'], ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'], ['sensitiviti', 'sensit'],
  ['sensibiliti', 'sensibl'], ['triplicate', 'triplic'], ['formative', 'form'], ['formalize', 'formal'], ['electriciti', 'electr'],
  ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'], ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'],
  ['airliner', 'airlin'], ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'], ['irritant', 'irrit'],
  ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'], ['adoption', 'adopt'], ['homologou', 'homolog'],
  ['communism', 'commun'], ['activate', 'activ'], ['angulariti', 'angular'], ['homologous', 'homolog'], ['effective', 'effect'],
  ['bowdlerize', 'bowdler'], ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'],
  ['generalizations', 'gener'], ['oscillators', 'oscil'],
];

describe("Porter's stemmer", () => {
  it.each(PAPER)('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('gives the forms a question and a record use the same stem', () => {
    const same = [['translate', 'translations', 'translating'], ['tenant', 'tenants'], ['trace', 'traces', 'tracing'], ['upload', 'uploaded', 'uploads'], ['subscription', 'subscriptions']];
    for (const forms of same) expect(new Set(forms.map(stem)).size, forms.join(', ')).toBe(1);
  });
});
