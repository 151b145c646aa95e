/**
 * Structured replies from any backend: ask for JSON (json_schema response format where the backend
 * supports it), take the JSON from the text, validate it with zod, and on failure ask once more
 * quoting the validation error. A reply that still fails is a format failure, never a verdict.
 */
import { z } from 'zod';
import type { Usage } from '../schemas/common.js';
import type { Backend, Conversation, ModelReply, SendOptions } from './backend.js';
import { jsonSchemaOf } from './json-schema.js';

export interface StructuredAttempt {
  prompt: string;
  raw: string;
  error?: string;
  usage: Usage;
  latencyMs: number;
}

export type StructuredResult<T> =
  | { ok: true; value: T; reply: ModelReply; attempts: StructuredAttempt[] }
  /** A format failure; `sessionId` is where a session backend's conversation now stands. */
  | { ok: false; error: string; attempts: StructuredAttempt[]; sessionId?: string };

/** Backend errors (timeout, HTTP, cancel) propagate: only a reply that arrived can be a format failure. */
export async function sendStructured<T>(
  backend: Backend,
  conversation: Conversation,
  prompt: string,
  schema: z.ZodType<T>,
  options: SendOptions & { schemaName?: string } = {},
): Promise<StructuredResult<T>> {
  const { schemaName, ...sendOptions } = options;
  const callOptions: SendOptions = { ...sendOptions, jsonSchema: { name: schemaName ?? 'reply', schema } };
  const attempts: StructuredAttempt[] = [];

  const first = await backend.send(conversation, prompt, callOptions);
  const firstCheck = checkReply(first.text, schema);
  attempts.push(attemptOf(prompt, first, firstCheck.error));
  if (firstCheck.ok) return { ok: true, value: firstCheck.value, reply: first, attempts };

  const repairPrompt = buildRepairPrompt(firstCheck.error, schema);
  const repairConversation: Conversation = {
    ...conversation,
    history: [...conversation.history, { role: 'user', content: prompt }, { role: 'assistant', content: first.text }],
    ...((first.sessionId ?? conversation.sessionId) !== undefined && { sessionId: first.sessionId ?? conversation.sessionId }),
  };
  const second = await backend.send(repairConversation, repairPrompt, callOptions);
  const secondCheck = checkReply(second.text, schema);
  attempts.push(attemptOf(repairPrompt, second, secondCheck.error));
  if (secondCheck.ok) return { ok: true, value: secondCheck.value, reply: second, attempts };
  const sessionId = second.sessionId ?? repairConversation.sessionId;
  return { ok: false, error: `format failure after one repair retry: ${secondCheck.error}`, attempts, ...(sessionId !== undefined && { sessionId }) };
}

type Check<T> = { ok: true; value: T; error?: undefined } | { ok: false; error: string };

function checkReply<T>(text: string, schema: z.ZodType<T>): Check<T> {
  let firstMismatch: z.ZodError | undefined;
  // A reply may hold several JSON values (a cited "[1]", an example): the first that fits wins.
  for (const candidate of jsonCandidates(text)) {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return { ok: true, value: parsed.data };
    firstMismatch ??= parsed.error;
  }
  if (firstMismatch) return { ok: false, error: `the JSON does not match the schema: ${z.prettifyError(firstMismatch)}` };
  try {
    extractJson(text);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  return { ok: false, error: 'no JSON value found in the reply' };
}

function attemptOf(prompt: string, reply: ModelReply, error: string | undefined): StructuredAttempt {
  return { prompt, raw: reply.text, ...(error !== undefined && { error }), usage: reply.usage, latencyMs: reply.latencyMs };
}

function buildRepairPrompt(error: string, schema: z.ZodType): string {
  let schemaText = '';
  try {
    schemaText = JSON.stringify(jsonSchemaOf(schema));
  } catch {
    // A schema zod cannot express as JSON Schema: the error quote alone has to do.
  }
  return [
    'Your previous reply could not be used.',
    `Problem: ${error}`,
    'Answer again with only the corrected JSON value, no prose and no code fence.',
    ...(schemaText ? [`It must match this JSON Schema: ${schemaText}`] : []),
  ].join('\n');
}

/**
 * The JSON value in a model's reply: the whole text, else the first fenced block that parses, else
 * the first balanced {...} or [...] that parses. Throws an Error saying why when there is none.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw new Error('the reply is empty');
  for (const candidate of jsonCandidates(trimmed)) return candidate;
  const whole = tryParse(trimmed);
  throw new Error(whole.ok ? 'no JSON value found in the reply' : `no JSON value found in the reply (${whole.error})`);
}

/** Every JSON value in the text, in the order extractJson prefers them. */
export function* jsonCandidates(text: string): Generator<unknown> {
  const trimmed = text.trim();
  if (trimmed.length === 0) return;
  const whole = tryParse(trimmed);
  if (whole.ok) {
    yield whole.value;
    return;
  }
  for (const match of trimmed.matchAll(/```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)```/g)) {
    const fenced = tryParse((match[1] ?? '').trim());
    if (fenced.ok) yield fenced.value;
  }
  for (let start = 0; start < trimmed.length; start++) {
    const char = trimmed[start];
    if (char !== '{' && char !== '[') continue;
    // Only what could open a JSON value: skips prose like "{x}" or "[see below]" cheaply.
    if (!/^(\{\s*["}]|\[\s*["{[\]\d\-tfn])/.test(trimmed.slice(start, start + 64))) continue;
    const end = balancedEnd(trimmed, start);
    if (end === -1) continue;
    const candidate = tryParse(trimmed.slice(start, end + 1));
    if (candidate.ok) {
      yield candidate.value;
      start = end;
    }
  }
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** Index of the bracket closing the one at `start`, skipping brackets inside strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}
