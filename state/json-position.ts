/**
 * Where JSON text first breaks the grammar (RFC 8259), and what was expected there. JSON.parse's own
 * message has no line or column on Node 20 and quotes the text, which may be any file a caller named.
 * Run only on text JSON.parse refused; iterative, so a deeply nested file cannot overflow the stack.
 */
export interface JsonProblem {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  problem: string;
}

type Frame = { kind: 'object' | 'array'; state: 'first' | 'key' | 'colon' | 'value' | 'next' };

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- the grammar forbids raw control characters in a string
const STRING_BODY = /(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

export function jsonProblemAt(text: string): JsonProblem {
  let at = 0;
  const stack: Frame[] = [];
  const fail = (problem: string): JsonProblem => ({ ...lineAndColumn(text, at), problem });
  const skipSpace = () => {
    while (at < text.length && WHITESPACE.has(text[at]!)) at += 1;
  };
  /** Reads one string at `at`; returns a problem, or undefined when it is well formed. */
  const readString = (): JsonProblem | undefined => {
    STRING_BODY.lastIndex = at + 1;
    STRING_BODY.exec(text);
    const end = STRING_BODY.lastIndex;
    if (text[end] === '"') {
      at = end + 1;
      return undefined;
    }
    at = end;
    if (end >= text.length) return fail('a string is not closed (the text ends inside it)');
    return fail(text[end] === '\\' ? 'a string holds an invalid escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX are allowed)' : 'a string holds a line break or control character (write it as an escape such as \\n)');
  };
  /** Reads a scalar or opens a container; returns a problem, or undefined. */
  const readValue = (): JsonProblem | undefined => {
    skipSpace();
    const char = text[at];
    if (char === undefined) return fail('the text ends where a value was expected');
    if (char === '{') return (stack.push({ kind: 'object', state: 'first' }), (at += 1), undefined);
    if (char === '[') return (stack.push({ kind: 'array', state: 'first' }), (at += 1), undefined);
    if (char === '"') return readString();
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, at)) return ((at += word.length), undefined);
    NUMBER.lastIndex = at;
    if (NUMBER.exec(text)) return ((at = NUMBER.lastIndex), undefined);
    return fail('expected a value (a string in double quotes, a number, true, false, null, an object or an array)');
  };

  if (text.startsWith('\uFEFF')) return fail('the text starts with a byte-order mark: save it as UTF-8 without one');
  const first = readValue();
  if (first) return first;
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    skipSpace();
    const char = text[at];
    if (char === undefined) return fail(`the text ends inside an ${frame.kind === 'object' ? "object (a '}' is missing)" : "array (a ']' is missing)"}`);
    const close = frame.kind === 'object' ? '}' : ']';
    if (frame.kind === 'object' && (frame.state === 'first' || frame.state === 'key')) {
      if (char === '}' && frame.state === 'first') {
        stack.pop();
        at += 1;
        continue;
      }
      if (char !== '"') return fail(frame.state === 'key' ? "expected a key in double quotes after ',' (JSON allows no trailing comma)" : "expected a key in double quotes or '}'");
      const problem = readString();
      if (problem) return problem;
      frame.state = 'colon';
      continue;
    }
    if (frame.state === 'colon') {
      if (char !== ':') return fail("expected ':' after the key");
      at += 1;
      frame.state = 'value';
    }
    if (frame.state === 'first' && char === ']') {
      stack.pop();
      at += 1;
      continue;
    }
    if (frame.state === 'first' || frame.state === 'value') {
      frame.state = 'next';
      const problem = readValue();
      if (problem) {
        if (frame.kind === 'array' && text[at] === ']' && problem.problem.startsWith('expected a value')) return fail("expected a value after ',' (JSON allows no trailing comma)");
        return problem;
      }
      continue;
    }
    // state 'next': after a member or element.
    if (char === ',') {
      at += 1;
      frame.state = frame.kind === 'object' ? 'key' : 'value';
      continue;
    }
    if (char === close) {
      stack.pop();
      at += 1;
      continue;
    }
    return fail(`expected ',' or '${close}'`);
  }
  skipSpace();
  if (at < text.length) return fail('more text after the JSON value (one file holds one value)');
  // JSON.parse refused what this reader accepts: say where the text starts, without guessing.
  at = 0;
  return fail('not valid JSON');
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
