import { z } from 'zod';

/**
 * A zod schema as plain JSON Schema for a provider (without `$schema`, which some servers reject).
 * The input view: a model must be told what it may SEND, so a field with a default is optional
 * (zod's output view would mark it required, and Claude Code then refuses a valid reply). Objects
 * that name their properties get `additionalProperties: false`, as zod strips unknown keys anyway;
 * that also keeps fully-required schemas acceptable to OpenAI's strict mode.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  // Every call of a run sends the same reply schema: convert it once.
  let converted = cache.get(schema);
  if (!converted) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
    converted = closeObjects(rest) as Record<string, unknown>;
    cache.set(schema, converted);
  }
  return structuredClone(converted);
}

const cache = new WeakMap<z.ZodType, Record<string, unknown>>();

function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = key === 'enum' || key === 'const' ? value : closeObjects(value);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}
