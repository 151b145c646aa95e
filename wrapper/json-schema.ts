import { z } from 'zod';

/** A zod schema as plain JSON Schema for a provider (without `$schema`, which some servers reject). */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}
