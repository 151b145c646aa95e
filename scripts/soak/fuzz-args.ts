import { randomUUID } from 'node:crypto';

/**
 * Arguments for the tool fuzz, generated from each tool's JSON Schema (tools/list): valid values,
 * boundary values, wrong types, huge strings, flag-like strings, path traversal, `__proto__` keys,
 * unicode, mixed with the deliberation and run ids earlier calls returned. Seeded, so a run repeats.
 */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: unknown;
}

export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32 */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

export const FLAGS = ['--dangerously-bypass-approvals-and-sandbox', '-c', '--yolo', '-s', 'danger-full-access', '--full-auto', '-C', '--', '-', '--config', 'sandbox_mode="danger-full-access"', '-csandbox_mode=danger-full-access', '--output-schema=/etc/passwd', '--json', '-m', '--add-dir=/', '-h'];
const PATHS = ['../../../../etc/passwd', '/etc/shadow', '..', '../deliberations', '~/.ssh/id_rsa', '/proc/self/environ', 'C:\\Windows\\win.ini', 'file:///etc/passwd', 'runs/../../x', 'a\u0000b', '/', '.', 'package.json', '/dev/zero', '/dev/stdin'];
const UNICODE = ['é', '\u202eevil', '𝕏𝕐', '\ud800', '\u0000', 'null', '\n\r\t', '🙂👩‍👩‍👧', 'שלום', '\u200b', '\ufeff', 'ǅ', '${HOME}', '$(id)', '`id`', '<script>alert(1)</script>', '%s%n', '\\', '"', "'"];
const PROTO = ['__proto__', 'constructor', 'prototype', '__proto__.x', 'constructor.prototype.x', 'toString', 'hasOwnProperty', '__proto__.sandbox'];
const REFS = ['P1', 'P2', 'P3', 'C1', 'C2', 'F1', 'F2', 'S1', 'U1', 'A1', 'P0', 'P-1', 'P999999999999', 'C1.P1'];
const SPECS = ['codex:fake-model', 'codex:--yolo', 'codex:', 'codex', 'openai:gpt-4.1', 'openai-compatible:http://127.0.0.1:9/v1#m', 'openai-compatible:file:///etc/passwd#x', 'claude:sonnet', 'codex:-c', 'codex:gpt-5.2'];
export const REPLIES = [
  'P1. Use SQLite: one file, no server. Empirical: the app writes <10 rows/s.\nP2. Add a WAL checkpoint. Logical.\nNo further points.',
  'C1: REJECT. P1 is wrong because the write rate is 50/s.\nDefense of C2: the measurement holds.\nP3. Conceded: point P2 does not hold.',
  '## Points\n1. Ship today.\n2) Wait a week.\n## Questions\nU1: what is the deadline?\n## Stress test\nFatal objection: none.',
  '```json\n{"points":[{"id":"P1","text":"x"}]}\n```',
];

export class ArgGen {
  readonly deliberationIds: string[] = [];
  readonly runIds: string[] = [];
  constructor(
    readonly rng: Rng,
    /** Chance that a string is huge (up to 1 MB). */
    private readonly hugeRate = 0.003,
  ) {}

  /** Arguments for one call: from the schema, or a plausible call with one field fuzzed. */
  args(tool: string, schema: JsonSchema): unknown {
    if (this.rng.chance(0.01)) return this.wrong(0);
    const base = this.rng.chance(0.35) ? plausible(tool, this) : undefined;
    if (!base) return this.value(schema, 0);
    if (this.rng.chance(0.5)) {
      const keys = Object.keys(schema.properties ?? {});
      const key = this.rng.pick(keys.length ? keys : ['x']);
      base[key] = this.value(schema.properties?.[key] ?? {}, 1);
    }
    return base;
  }

  id(): string {
    const pools = [this.deliberationIds, this.runIds].filter((pool) => pool.length > 0);
    if (pools.length === 0 || this.rng.chance(0.1)) return this.string({});
    return this.rng.pick(this.rng.pick(pools));
  }

  deliberationId(): string {
    return this.deliberationIds.length && this.rng.chance(0.9) ? this.rng.pick(this.deliberationIds.slice(-20)) : this.string({});
  }

  value(schema: JsonSchema, depth: number): unknown {
    if (this.rng.chance(0.04)) return this.wrong(depth);
    if (schema.anyOf) return this.value(this.rng.pick(schema.anyOf), depth);
    if ('const' in schema) return schema.const;
    if (schema.enum) return this.rng.chance(0.92) ? this.rng.pick(schema.enum) : this.string(schema);
    switch (schema.type) {
      case 'string':
        return this.string(schema);
      case 'number':
      case 'integer':
        return this.number(schema);
      case 'boolean':
        return this.rng.chance(0.5);
      case 'array':
        return Array.from({ length: this.rng.chance(0.05) ? 50 : this.rng.int(4) }, () => this.value(schema.items ?? {}, depth + 1));
      case 'object':
        return this.object(schema, depth);
      default:
        return this.any(depth);
    }
  }

  private object(schema: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(schema.required ?? []);
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (!this.rng.chance(required.has(key) ? 0.97 : 0.5)) continue;
      out[key] = key === 'deliberationId' ? this.deliberationId() : key === 'runId' ? this.id() : this.value(sub, depth + 1);
    }
    const extra = schema.additionalProperties !== undefined && schema.additionalProperties !== false ? this.rng.int(4) : this.rng.chance(0.1) ? 1 : 0;
    for (let i = 0; i < extra; i++) own(out, this.rng.chance(0.5) ? this.rng.pick(PROTO) : this.string({}), this.any(depth + 1));
    return out;
  }

  string(schema: JsonSchema): string {
    const r = this.rng.next();
    if (r < this.hugeRate) return this.huge();
    if (r < 0.1 && schema.maxLength !== undefined) return 'a'.repeat(schema.maxLength + this.rng.int(2));
    if (r < 0.13) return schema.minLength ? 'a'.repeat(Math.max(0, schema.minLength - this.rng.int(2))) : '';
    if (r < 0.3) return this.rng.pick(FLAGS);
    if (r < 0.38) return this.rng.pick(PATHS);
    if (r < 0.48) return this.rng.pick(UNICODE);
    if (r < 0.53) return this.rng.pick(PROTO);
    if (r < 0.63) return this.rng.pick(REFS);
    if (r < 0.68) return this.rng.pick(SPECS);
    if (r < 0.72) return randomUUID();
    if (r < 0.78) return this.id();
    if (r < 0.82) return this.rng.pick(REPLIES);
    if (r < 0.86) return `${this.rng.pick(FLAGS)} ${this.rng.pick(FLAGS)}=${this.rng.pick(PATHS)}`;
    return Array.from({ length: this.rng.int(40) }, () => String.fromCodePoint(this.rng.chance(0.8) ? 32 + this.rng.int(95) : this.rng.int(0x2ffff))).join('');
  }

  private huge(): string {
    const size = this.rng.chance(0.5) ? 1024 * 1024 : 1 + this.rng.int(1024 * 1024);
    const unit = this.rng.pick(['x', '--yolo ', 'P1. point\n', 'é', '\n']);
    return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  }

  private number(schema: JsonSchema): number {
    const candidates = [0, -1, 1, 0.5, -0, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 3, 10];
    if (schema.minimum !== undefined) candidates.push(schema.minimum, schema.minimum - 1, schema.minimum + 0.001);
    if (schema.maximum !== undefined) candidates.push(schema.maximum, schema.maximum + 1, schema.maximum - 0.5);
    const value = this.rng.pick(candidates);
    // Waits mostly short, so the fuzz spends its time on calls rather than on sleeping.
    return value > 5 && this.rng.chance(0.8) ? this.rng.int(3) : value;
  }

  private any(depth: number): unknown {
    const kinds = depth > 3 ? 4 : 6;
    switch (this.rng.int(kinds)) {
      case 0:
        return this.string({});
      case 1:
        return this.number({});
      case 2:
        return this.rng.pick([true, false, null]);
      case 3:
        return this.rng.pick(SPECS);
      case 4:
        return Array.from({ length: this.rng.int(3) }, () => this.any(depth + 1));
      default: {
        const out: Record<string, unknown> = {};
        for (let i = this.rng.int(3); i > 0; i--) own(out, this.rng.pick([...PROTO, 'model', 'sandbox', 'x']), this.any(depth + 1));
        return out;
      }
    }
  }

  /** A value of the wrong type (or a pathological shape). */
  wrong(depth: number): unknown {
    const nested = (n: number): unknown => (n === 0 ? 1 : [nested(n - 1)]);
    return this.rng.pick<() => unknown>([
      () => null,
      () => 42,
      () => true,
      () => [],
      () => ({}),
      () => this.string({}),
      () => nested(200),
      () => JSON.parse('{"__proto__":{"polluted":"yes","sandbox":"danger-full-access"}}'),
      () => this.any(depth),
    ])();
  }
}

/** An own property even for `__proto__` (assignment would set the prototype instead). */
function own(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A well-formed call that reaches deep states; the caller may then fuzz one of its fields. */
function plausible(tool: string, gen: ArgGen): Record<string, unknown> | undefined {
  const rng = gen.rng;
  const id = gen.deliberationId();
  switch (tool) {
    case 'delib_start':
      return { question: 'Should we ship today?', mode: rng.pick(['standard', 'minimal', 'quick']), consult: rng.chance(0.5) ? false : { waitSeconds: rng.int(2) } };
    case 'delib_consult':
      return rng.chance(0.6) ? { deliberationId: id, reply: rng.pick(REPLIES) } : { deliberationId: id, waitSeconds: rng.int(2), ...(rng.chance(0.2) ? { cancel: true } : {}) };
    case 'delib_judge':
      return {
        deliberationId: id,
        points: [{ id: rng.pick(REFS), verdict: rng.pick(['AGREE', 'SKEPTICAL', 'REJECT', 'ILL-FORMED']), flaw: 'too slow', reason: 'fits', claimType: 'value', evidenceType: 'n/a' }],
        phase: { advance: rng.chance(0.5) },
        consult: rng.chance(0.5) ? false : { waitSeconds: 0 },
      };
    case 'delib_synthesize':
      return { deliberationId: id, recommendation: 'Ship it.', confidence: 'medium' };
    case 'delib_arbitrate':
      return { deliberationId: id, backend: rng.pick(SPECS), waitSeconds: 0, items: [{ ref: rng.pick(REFS), flagged: rng.chance(0.5) }] };
    case 'delib_status':
      return { deliberationId: id };
    case 'run_start':
      return rng.chance(0.5)
        ? { protocol: 'debate', config: { question: 'Ship?', agents: [{ model: rng.pick(SPECS) }, { model: 'codex:fake-model' }], rounds: 1 } }
        : { protocol: 'dialogic', config: { modelA: rng.pick(SPECS), modelB: 'codex:fake-model', maxCycles: 1 } };
    case 'run_status':
    case 'run_cancel':
    case 'run_result':
      return { runId: gen.runIds.length ? rng.pick(gen.runIds) : 'none', ...(tool === 'run_status' ? { waitSeconds: rng.int(2) } : {}) };
    default:
      return undefined;
  }
}
