/**
 * OpenAI's strict structured outputs (what Codex sends for --output-schema) accept only schemas whose
 * every object lists all its properties as required and forbids others; open maps and optional
 * fields are refused with a 400. Returns why a JSON schema breaks that rule, or undefined if it fits.
 */
export function strictSchemaProblem(schema: unknown, path = '$'): string | undefined {
  if (Array.isArray(schema)) {
    for (const [index, item] of schema.entries()) {
      const problem = strictSchemaProblem(item, `${path}[${index}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (!schema || typeof schema !== 'object') return undefined;
  const node = schema as Record<string, unknown>;
  const isObject = node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'));
  if (isObject) {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const optional = Object.keys(properties).filter((key) => !required.has(key));
    if (optional.length > 0) return `${path}: properties ${optional.join(', ')} are not required`;
    if (node.additionalProperties !== false) return `${path}: additionalProperties must be false`;
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' || key === 'enum' || key === 'const') continue;
    const problem = strictSchemaProblem(value, `${path}.${key}`);
    if (problem) return problem;
  }
  return undefined;
}
