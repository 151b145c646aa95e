import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { UserFacingError } from './user-facing-error.js';

/** Ids that end up in file names: letters, digits, '-' and '_', no leading dot, at most 64 chars. */
export const SafeId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'ids are 1-64 characters of A-Z a-z 0-9 _ - and start with a letter or digit');
export type SafeId = z.infer<typeof SafeId>;

/** Token usage of one model call (a per-turn figure, never a cumulative one). */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

export const zeroUsage = (): Usage => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
}

/**
 * Zod issues as one line a person can act on (`agents.0.model: Invalid input: expected string; rounds: ...`),
 * never zod's JSON; unknown keys first, outermost first (a misspelt key often causes the other problems). `where` names
 * where the value at a top-level key came from (a file, a flag), put before its path.
 */
export function issuesText(error: z.ZodError, where?: (topKey: string | undefined) => string | undefined): string {
  const rank = (issue: LeafIssue) => (issue.unknownKeys === undefined ? 1000 : 0) + issue.path.length;
  const issues = leafIssues(error.issues, []).sort((a, b) => rank(a) - rank(b));
  return issues
    .map((issue) => {
      const source = where?.(String(issue.path[0] ?? issue.unknownKeys?.[0] ?? '') || undefined);
      const path = issue.path.join('.');
      return [source, path, issue.message].filter(Boolean).join(': ');
    })
    .join('; ');
}

interface LeafIssue {
  path: PropertyKey[];
  message: string;
  unknownKeys?: string[];
}

/** A value that matches no alternative of a union is explained by the alternative it came closest to (the one that looked inside it). */
function leafIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): LeafIssue[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') return [{ path, message: issue.message, unknownKeys: issue.keys }];
    if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return [{ path, message: `required, and not given (expected ${issue.expected})` }];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
    const closest = issue.errors.find((branch) => branch.some((inner) => inner.path.length > 0)) ?? issue.errors.at(-1)!;
    return leafIssues(closest, path);
  });
}

/**
 * An object of a configuration a person writes: a key it does not know is refused (never dropped, which
 * would run something other than what was asked), naming the nearest known key and every accepted one.
 */
export function configObject<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const accepted = Object.keys(shape);
  return z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeysText(issue.keys, accepted) : undefined) });
}

export function unknownKeysText(keys: readonly string[], accepted: readonly string[]): string {
  const named = keys.map((key) => {
    const near = accepted.length ? closest(key, [...accepted]) : undefined;
    return near !== undefined && distance(key.toLowerCase(), near.toLowerCase()) <= Math.max(2, Math.floor(key.length / 3)) ? `"${key}" (did you mean "${near}"?)` : `"${key}"`;
  });
  return `unknown key${keys.length === 1 ? '' : 's'} ${named.join(', ')}; the keys accepted here are ${accepted.join(', ')}`;
}

/** Parses a configuration, or throws a UserFacingError (`invalid-config`) naming each problem by its path. */
export function parseConfig<T>(schema: z.ZodType<T>, input: unknown, what: string, where?: (topKey: string | undefined) => string | undefined): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new UserFacingError(`invalid ${what}: ${issuesText(parsed.error, where)}`, { code: 'invalid-config' });
  return parsed.data;
}
