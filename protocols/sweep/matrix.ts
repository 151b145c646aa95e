import { parse as parseYaml } from 'yaml';
import { canonicalJson, isPlainObject, sha256Hex } from '../canonical-json.js';
import { issuesText } from '../../schemas/common.js';
import { UserFacingError } from '../../schemas/user-facing-error.js';
import { readTextFile } from '../../state/read-file.js';
import { FORBIDDEN_KEYS, LabelledValue, SweepMatrix, type SweepMatrixInput, type SweepRunPlan } from '../../schemas/sweep.js';

/** Reads a sweep file (YAML or JSON, which is YAML too) and validates it; errors name the file. */
export async function loadSweepMatrix(path: string): Promise<SweepMatrix> {
  return parseSweepMatrix(readYamlText(await readTextFile(path), path), path);
}

/** YAML (or JSON) text, its syntax errors prefixed with the file (the yaml package gives line and column). */
export function readYamlText(text: string, file: string): unknown {
  try {
    return parseYaml(text);
  } catch (error) {
    throw new UserFacingError(`${file} is not valid YAML or JSON: ${(error as Error).message}`, { code: 'not-yaml' });
  }
}

/** More runs than any sweep needs: a file that expands beyond it is a mistake, refused before anything is allocated. */
export const MAX_SWEEP_RUNS = 100_000;

export function parseSweepMatrix(input: unknown, file?: string): SweepMatrix {
  const named = file === undefined ? 'invalid sweep file' : `invalid sweep file ${file}`;
  const protoAt = protoKeyPath(input, []);
  if (protoAt) throw new Error(`${named} at ${protoAt}: the key __proto__ is not allowed`);
  const parsed = SweepMatrix.safeParse(input);
  if (!parsed.success) throw new UserFacingError(`${named}: ${issuesText(parsed.error)}`, { code: 'invalid-config' });
  const runs = runCountOf(parsed.data);
  if (runs > MAX_SWEEP_RUNS) {
    const combinations = runs / parsed.data.repetitions;
    throw new Error(
      `the sweep file expands to ${formatCount(combinations)} combinations x ${parsed.data.repetitions} repetitions = ${formatCount(runs)} runs; at most ${formatCount(MAX_SWEEP_RUNS)}: fewer values or repetitions, or several sweep files`,
    );
  }
  return parsed.data;
}

/** Combinations times repetitions, computed without expanding anything (Infinity past Number's range). */
function runCountOf(matrix: SweepMatrix): number {
  const combinations = matrix.runs ? matrix.runs.length : Object.values(matrix.matrix ?? {}).reduce((count, values) => count * values.length, 1);
  return combinations * matrix.repetitions;
}

const formatCount = (n: number): string => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'too many');

/** Where an own `__proto__` key sits (YAML and JSON.parse make one; assigning it elsewhere would set a prototype). */
function protoKeyPath(value: unknown, path: string[], seen = new Set<object>()): string | undefined {
  // YAML aliases may share (or nest) a node: each is looked at once.
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  if (Object.hasOwn(value, '__proto__')) return [...path, '__proto__'].join('.');
  for (const [key, item] of Object.entries(value)) {
    const found = protoKeyPath(item, [...path, key], seen);
    if (found) return found;
  }
  return undefined;
}

interface Choice {
  param: string;
  label: string;
  set: Record<string, unknown>;
}

/** Every run of the sweep in a fixed order: combinations in product order, repetitions inside. */
export function expandSweep(input: SweepMatrix | SweepMatrixInput): SweepRunPlan[] {
  const matrix = parseSweepMatrix(input);
  const combinations = matrix.runs ? matrix.runs.map((entry) => Object.entries(entry).map(([param, value]) => choiceOf(param, value))) : product(matrix.matrix ?? {});
  const plans: SweepRunPlan[] = [];
  for (const combination of combinations) {
    const config = structuredClone(matrix.base);
    for (const choice of combination) for (const [path, value] of Object.entries(choice.set)) setPath(config, path, value);
    const params = Object.fromEntries(combination.map((choice) => [choice.param, choice.label]));
    const key = runKey(matrix.protocol, config);
    for (let repetition = 1; repetition <= matrix.repetitions; repetition += 1) {
      plans.push({ id: runIdFor(matrix.protocol, combination, key, repetition), index: plans.length, protocol: matrix.protocol, repetition, params, config });
    }
  }
  const ids = new Set(plans.map((plan) => plan.id));
  if (ids.size !== plans.length) throw new Error('two combinations of the sweep give the same configuration: remove the duplicate values');
  return plans;
}

function product(matrix: Record<string, unknown[]>): Choice[][] {
  let combinations: Choice[][] = [[]];
  for (const [param, values] of Object.entries(matrix)) {
    const choices = values.map((value) => choiceOf(param, value));
    const labels = new Set(choices.map((choice) => choice.label));
    if (labels.size !== choices.length) throw new Error(`parameter ${param} has two values with the same label: give them distinct labels`);
    combinations = combinations.flatMap((combination) => choices.map((choice) => [...combination, choice]));
  }
  return combinations;
}

function choiceOf(param: string, value: unknown): Choice {
  const labelled = LabelledValue.safeParse(value);
  if (labelled.success && isPlainObject(value)) {
    return { param, label: labelled.data.label ?? shortHash(labelled.data.set), set: labelled.data.set };
  }
  if (isPlainObject(value) && Object.hasOwn(value, 'set') && !labelled.success) {
    const issue = labelled.error.issues[0];
    throw new Error(`invalid sweep file at ${[param, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'not a {label, set} value'}`);
  }
  return { param, label: labelOf(value), set: { [param]: value } };
}

function labelOf(value: unknown): string {
  if (value === null) return 'none';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `n${value.length}`;
  return shortHash(value);
}

/** Sets `a.b.c` inside `target`; a null value removes the key. Only own keys are walked, never a prototype. */
export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  const forbidden = parts.find((part) => FORBIDDEN_KEYS.has(part));
  if (forbidden !== undefined) throw new Error(`sweep path "${path}" names "${forbidden}": config paths may not reach into prototypes`);
  let node = target;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    if (!isPlainObject(next)) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === null) delete node[last];
  else node[last] = structuredClone(value);
}

export { canonicalJson };

const sha = sha256Hex;
const shortHash = (value: unknown) => sha(canonicalJson(value)).slice(0, 8);
const runKey = (protocol: string, config: Record<string, unknown>) => sha(canonicalJson({ protocol, config })).slice(0, 10);

/**
 * `<protocol>-<labels>-<hash of the configuration>-r<repetition>`: the hash makes it unique and
 * stable, the labels make it readable. At most 64 characters (a SafeId).
 */
function runIdFor(protocol: string, combination: Choice[], key: string, repetition: number): string {
  const prefix = protocol === 'dialogic' ? 'dlg' : 'deb';
  const suffix = `${key}-r${repetition}`;
  const room = 64 - prefix.length - suffix.length - 2;
  const labels = combination
    .map((choice) => choice.label)
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, Math.max(room, 0))
    .replace(/-+$/, '');
  return labels ? `${prefix}-${labels}-${suffix}` : `${prefix}-${suffix}`;
}

/** A hash of the whole expanded sweep: shards of one sweep agree on it. */
export function sweepHashOf(plans: readonly SweepRunPlan[]): string {
  return sha(canonicalJson(plans.map((plan) => ({ id: plan.id, config: plan.config })))).slice(0, 16);
}

export interface Shard {
  index: number;
  count: number;
}

/** `i/n` with 1 <= i <= n. */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) throw new Error(`invalid shard "${text}": write i/n with 1 <= i <= n, e.g. 2/4`);
  return { index, count };
}

/** Round robin over the expanded order: balanced, and the same on every machine. */
export function selectShard(plans: readonly SweepRunPlan[], shard: Shard): SweepRunPlan[] {
  return plans.filter((plan) => plan.index % shard.count === shard.index - 1);
}
