import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonProblemAt } from '../../state/json-position.js';
import { parseJsonText, readJsonFile } from '../../state/json-text.js';
import { readTextFile, statPath } from '../../state/read-file.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';

const work = await mkdtemp(join(tmpdir(), 'parley-json-text-'));
afterAll(() => rm(work, { recursive: true, force: true }));

const failure = async (work: Promise<unknown>): Promise<Error> =>
  work.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: Error) => error,
  );

describe('JSON errors say file:line:column and what was expected there (issue 28, item 6)', () => {
  it.each([
    ['{\n  "rounds": 2,\n}\n', 3, 1, /expected a key in double quotes after ',' \(JSON allows no trailing comma\)/],
    ['{"rounds": }', 1, 12, /expected a value/],
    ['[1, 2,]', 1, 7, /expected a value after ','/],
    ['{"a" 1}', 1, 6, /expected ':' after the key/],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '}'/],
    ['{"a": "open', 1, 12, /a string is not closed/],
    ['{"a": "line\nbreak"}', 1, 12, /line break or control character/],
    ['{"a": "\\x"}', 1, 8, /invalid escape/],
    ["{'a': 1}", 1, 2, /expected a key in double quotes or '}'/],
    ['{"a": 1} {"b": 2}', 1, 10, /more text after the JSON value/],
    ['{"a": [1, 2}', 1, 12, /expected ',' or '\]'/],
    ['{"a": 01}', 1, 8, /expected ',' or '}'/],
    ['\uFEFF{}', 1, 1, /byte-order mark/],
    ['{"a": tru}', 1, 7, /expected a value/],
  ])('%j: line %i, column %i', (text, line, column, problem) => {
    expect(() => JSON.parse(text)).toThrow();
    const found = jsonProblemAt(text);
    expect(found).toMatchObject({ line, column });
    expect(found.problem).toMatch(problem);
  });

  it('a file nested deeper than any stack still gets its place, not a RangeError', () => {
    expect(jsonProblemAt('['.repeat(200_000))).toMatchObject({ line: 1, column: 200_001, problem: "the text ends inside an array (a ']' is missing)" });
  });

  it('agrees with JSON.parse: whatever text JSON.parse refuses, the reader finds the place it breaks', () => {
    const broken = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', '\n', 'x', '{', '['), fc.boolean())
      .map(([text, at, insert, drop]) => {
        const index = at % (text.length + 1);
        return text.slice(0, index) + insert + text.slice(index + (drop ? 1 : 0));
      })
      .filter((text) => {
        try {
          JSON.parse(text);
          return false;
        } catch {
          return text.trim() !== '';
        }
      });
    fc.assert(
      fc.property(broken, (text) => {
        expect(jsonProblemAt(text).problem).not.toBe('not valid JSON');
      }),
      { numRuns: 2000 },
    );
  });

  it('parseJsonText and readJsonFile name the file and the place, never the text', async () => {
    const secretish = '{\n  "question": "sk-live-1234",\n  "rounds": 2,\n}\n';
    const file = join(work, 'cfg.json');
    await writeFile(file, secretish);
    const error = await failure(readJsonFile(file));
    expect(error).toBeInstanceOf(UserFacingError);
    expect(error.message).toBe(`${file} is not valid JSON at ${file}:4:1: expected a key in double quotes after ',' (JSON allows no trailing comma)`);
    expect(() => parseJsonText(secretish, 'the reply')).toThrow(/^the reply is not valid JSON at line 4, column 1: /);
    expect(() => parseJsonText('  \n', 'notes.json')).toThrow(/^notes\.json is not valid JSON \(it is empty\)$/);
  });
});

describe('file errors name the file and say what to do (issue 28, item 6)', () => {
  it('a missing file, a folder, a path through a file', async () => {
    const missing = await failure(readTextFile('nonexist.json'));
    expect(missing.message).toBe(`nonexist.json does not exist (looked in ${process.cwd()}): check the name, or give the file's full path`);
    expect(missing.message).not.toMatch(/ENOENT/);
    expect((await failure(statPath(join(work, 'nonexist.json')))).message).toBe(`${join(work, 'nonexist.json')} does not exist: check the name, or give the file's full path`);
    await mkdir(join(work, 'folder'));
    expect((await failure(readTextFile(join(work, 'folder')))).message).toMatch(/folder is a folder, not a file: name a file in it$/);
    await writeFile(join(work, 'plain'), 'x');
    expect((await failure(readTextFile(join(work, 'plain', 'inner.json')))).message).toMatch(/does not exist: a part of the path before its last name is a file, not a folder$/);
  });
});
