import { z } from 'zod';
import { parseModelSpec } from '../wrapper/parse-spec.js';

/** Problems with the model specs a config names, each with its config path: found before any call is made. */
export function modelSpecProblems(specs: { path: (string | number)[]; spec: string }[]): { path: (string | number)[]; message: string }[] {
  const problems: { path: (string | number)[]; message: string }[] = [];
  for (const { path, spec } of specs) {
    try {
      parseModelSpec(spec);
    } catch (error) {
      problems.push({ path, message: (error as Error).message });
    }
  }
  return problems;
}

/** The config schema, refined so that an unusable model spec is a config error (run_start refuses it). */
export function withCheckedModelSpecs<T>(schema: z.ZodType<T>, specsOf: (config: T) => { path: (string | number)[]; spec: string }[]): z.ZodType<T> {
  return schema.superRefine((config, ctx) => {
    for (const problem of modelSpecProblems(specsOf(config))) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
}
