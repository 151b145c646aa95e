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

/** Zod issues as one line a person can act on (`agents.0.model: Invalid input: expected string; rounds: ...`), never zod's JSON. */
export function issuesText(error: z.ZodError): string {
  return leafIssues(error.issues, []).map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`).join('; ');
}

/** A value that matches no alternative of a union is explained by the alternative it came closest to (the one that looked inside it). */
function leafIssues(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [{ path, message: issue.message }];
    const closest = issue.errors.find((branch) => branch.some((inner) => inner.path.length > 0)) ?? issue.errors.at(-1)!;
    return leafIssues(closest, path);
  });
}

/** Parses a configuration, or throws a UserFacingError (`invalid-config`) naming each problem by its path. */
export function parseConfig<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new UserFacingError(`invalid ${what}: ${issuesText(parsed.error)}`, { code: 'invalid-config' });
  return parsed.data;
}
