import { describe, expect, it } from 'vitest';
import { extractJson, jsonCandidates } from '../../wrapper/structured.js';

/**
 * The shapes models give JSON in, and what parley takes from each. parley extracts, it never repairs:
 * a reply that is not valid JSON (trailing commas, single quotes, comments, a cut-off reply) yields
 * nothing, and sendStructured asks the model once more quoting the parse error. A repair library such
 * as jsonrepair would complete a truncated reply into a "valid" verdict (see CONTRIBUTING.md).
 */
const TAKEN: [shape: string, reply: string, value: unknown][] = [
  ['bare object', '{"verdict":"accept","reason":"ok"}', { verdict: 'accept', reason: 'ok' }],
  ['bare array, blank around', '\n  [1, 2]  \n', [1, 2]],
  ['a JSON string is a value', '"accept"', 'accept'],
  ['fenced json', '```json\n{"verdict":"reject"}\n```', { verdict: 'reject' }],
  ['fenced, CRLF line ends', '```json\r\n{"a":1}\r\n```', { a: 1 }],
  ['fenced without a language, prose around', 'Here it is:\n```\n{"x":true}\n```\nHope it helps.', { x: true }],
  ['second fence is the JSON one', '```js\nnot json\n```\n```json\n{"second":2}\n```', { second: 2 }],
  ['prose before and after', 'My verdict: {"verdict":"accept","reason":"sound"} - done.', { verdict: 'accept', reason: 'sound' }],
  ['braces and quotes inside strings', 'Answer {"reason":"a } and a \\" quote","n":[{"k":"]"}]} end', { reason: 'a } and a " quote', n: [{ k: ']' }] }],
  ['prose in braces skipped', 'Note {see above}, then {"ok":1}', { ok: 1 }],
  ['non-ASCII text', '{"reason":"é ✓ 漢字"}', { reason: 'é ✓ 漢字' }],
];

const REFUSED: [shape: string, reply: string, why: RegExp][] = [
  ['empty', '  \n ', /the reply is empty/],
  ['prose only', 'I accept the claim.', /no JSON value found/],
  ['trailing commas', '{"a": 1, "b": [1, 2,],}', /no JSON value found/],
  ['single quotes', "{'verdict': 'accept'}", /no JSON value found/],
  ['comments', '{"verdict": "accept" // sure\n}', /no JSON value found/],
  ['Python constants', '{"ok": True, "why": None}', /no JSON value found/],
  ['truncated mid-string', '{"verdict":"accept","reason":"the model was cut off mi', /no JSON value found/],
  ['truncated inside a fence', '```json\n{"verdict":"accept",\n', /no JSON value found/],
  ['unquoted keys in a fence', '```json\n{verdict: accept}\n```', /no JSON value found/],
];

describe('JSON from model output: what parley takes', () => {
  it.each(TAKEN)('%s', (_shape, reply, value) => {
    expect(extractJson(reply)).toEqual(value);
  });
});

describe('JSON from model output: what parley refuses (the repair retry gets the error)', () => {
  it.each(REFUSED)('%s', (_shape, reply, why) => {
    expect(() => extractJson(reply)).toThrow(why);
    expect([...jsonCandidates(reply)]).toEqual([]);
  });

  it('names the parse error of a reply that looked like JSON, so the retry can quote it', () => {
    expect(() => extractJson('{"a": 1,}')).toThrow(/no JSON value found in the reply \(.+\)/);
  });
});

describe('JSON from model output: several values in one reply', () => {
  it('offers every value in reading order, so a schema can pick the one that fits', () => {
    expect([...jsonCandidates('See [1]. {"verdict":"accept"}')]).toEqual([[1], { verdict: 'accept' }]);
    expect([...jsonCandidates('First {"v":"a"}.\nThen {"v":"b"}')]).toEqual([{ v: 'a' }, { v: 'b' }]);
    expect([...jsonCandidates('{"a":1}{"b":2}')]).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('extractJson takes the first of them', () => {
    expect(extractJson('See [1]. {"verdict":"accept"}')).toEqual([1]);
  });
});
