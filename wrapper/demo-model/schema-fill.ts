/**
 * A value that satisfies a JSON Schema (the response_format a caller sent), for a request the demo
 * model has no answer of its own for, and to fill fields its own answers leave out: it follows the
 * reply schema it was given rather than guessing one.
 */
type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

function resolveRef(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let target: unknown = root;
  for (const part of ref.slice(2).split('/')) target = isSchema(target) ? target[part] : undefined;
  return isSchema(target) ? target : {};
}

export function fillSchema(input: unknown, words: string, root: Schema = isSchema(input) ? input : {}, depth = 0): unknown {
  if (!isSchema(input) || depth > 12) return null;
  const schema = resolveRef(input, root);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length) {
    const chosen = alternatives.find((alt) => isSchema(alt) && alt.type !== 'null') ?? alternatives[0];
    return fillSchema(chosen, words, root, depth + 1);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : Object.keys(properties));
      return Object.fromEntries(Object.entries(properties).filter(([key]) => required.has(key)).map(([key, sub]) => [key, fillSchema(sub, `${words} ${key}`, root, depth + 1)]));
    }
    case 'array': {
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, 1);
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : count;
      return Array.from({ length: Math.min(count, max) }, (_, i) => fillSchema(schema.items, `${words} ${i + 1}`, root, depth + 1));
    }
    case 'number':
    case 'integer': {
      const low = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const high = typeof schema.maximum === 'number' ? schema.maximum : Math.max(low, 1);
      return type === 'integer' ? Math.ceil(low) : (low + high) / 2;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return `(demo model) ${words.trim() || 'a placeholder'}`;
  }
}

/** The reply filled out to the schema: every required field the reply lacks gets a value that fits. */
export function completeToSchema(reply: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  if (!isSchema(schema)) return reply;
  const filled = fillSchema(schema, 'value');
  return isSchema(filled) ? { ...filled, ...reply } : reply;
}
