import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ARMS, type Arm } from './pairs.js';

export const LABELS = ['X', 'Y'] as const;
export type Label = (typeof LABELS)[number];

const oneLine = z
  .string()
  .trim()
  .min(1, 'give a reason: one line')
  .refine((text) => !/[\r\n]/.test(text), 'keep the reason to one line (no line breaks)');

const Score = z
  .object({
    score: z.number().int('a whole number from 1 to 5').min(1, 'a whole number from 1 to 5').max(5, 'a whole number from 1 to 5'),
    reason: oneLine,
  })
  .strict();

/** One answer's scores. reversalVisible: the answer tells the user that Codex changed its position during the consult. */
const AnswerScores = z
  .object({
    correctness: Score,
    decision: Score,
    actionability: Score,
    concision: Score,
    calibration: Score,
    reversalVisible: z.boolean('true or false: does this answer say that Codex changed its position?'),
  })
  .strict();

/** What a judge writes to verdict.json (verdict-2.json for the second judge). */
export const Verdict = z
  .object({
    X: AnswerScores,
    Y: AnswerScores,
    preferred: z.enum(['X', 'Y', 'tie'], 'one of "X", "Y", "tie"'),
    strength: z.enum(['slightly', 'clearly', 'strongly'], 'one of "slightly", "clearly", "strongly"').optional(),
    notes: z.string(),
  })
  .strict()
  .refine((v) => v.preferred === 'tie' || v.strength !== undefined, { message: 'strength is required when preferred is "X" or "Y"', path: ['strength'] });
export type Verdict = z.infer<typeof Verdict>;

/** Which label is which arm (key.json, key-2.json): never shown to a judge. */
export const Key = z
  .object({
    X: z.enum(ARMS),
    Y: z.enum(ARMS),
    seed: z.number().int().optional(),
    swappedFrom: z.string().optional(),
    /** How often the tool's name was replaced in each arm's answer. */
    redactions: z.partialRecord(z.enum(ARMS), z.number().int()).optional(),
  })
  .strict().refine((k) => k.X !== k.Y, 'X and Y must be different arms');
export type Key = z.infer<typeof Key>;

/** The verdict's schema as JSON Schema, written beside the packet for the judge. */
export const verdictJsonSchema = (): object => z.toJSONSchema(Verdict, { io: 'input' });

/** Reads and checks a JSON file against a schema; throws one error listing every problem by its path. */
export function readChecked<T>(file: string, schema: z.ZodType<T>, what: string): T {
  if (!existsSync(file)) throw new Error(`${file} is missing: ${what}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(the whole file)'}: ${issue.message}`);
  throw new Error(`${file} does not match the ${what} schema:\n${problems.join('\n')}`);
}

/** The arm a verdict prefers ('tie' for a tie), through its key. */
export function preferredArm(verdict: Verdict, key: Key): Arm | 'tie' {
  return verdict.preferred === 'tie' ? 'tie' : key[verdict.preferred];
}
