import { z } from 'zod';
import { DebaterReply, DistributionDebaterReply } from '../../schemas/debate.js';
import { canonicalAnswer, type AnswerKind, type ParsedReply } from './parse-turn.js';

/**
 * The reply schema a debater is sent. With options, the answer and the distribution's keys are
 * enums of them in the JSON Schema the model receives; the reader still takes another case or
 * spacing of an option (readTurn maps it onto the option's spelling), and refuses anything else,
 * which costs the turn one repair retry quoting the options.
 */
export function debaterReplySchema(kind: AnswerKind, options?: readonly string[]): z.ZodType<ParsedReply> {
  const base = kind === 'distribution' ? DistributionDebaterReply : DebaterReply;
  if (!options) return base;
  const list = options.map((option) => JSON.stringify(option)).join(', ');
  const isOption = (value: string) => options.includes(canonicalAnswer(value, [...options]));
  const answer = z
    .string()
    .min(1)
    .refine(isOption, { message: `must be one of the options: ${list}` })
    .meta({ enum: [...options] });
  const distribution = z
    .record(z.string(), z.number())
    .refine((weights) => Object.keys(weights).every(isOption), { message: `every key must be one of the options: ${list}` })
    .meta({ propertyNames: { enum: [...options] } });
  return kind === 'distribution' ? base.extend({ answer: answer.optional(), distribution }) : base.extend({ answer, distribution: distribution.optional() });
}
