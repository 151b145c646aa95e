import { identityBias, type DebateAnalysis } from '../debate/analyze.js';
import type { SweepRunPlan } from '../../schemas/sweep.js';
import { canonicalJson } from '../canonical-json.js';
import { describeDifferences, differencesOf, type PairedStats } from './statistics.js';
import type { RunRow } from './run-rows.js';

/** `--compare pairing=p1,p2`: B - A per measure over runs that differ only in `parameter`. */
export interface ComparisonSpec {
  parameter: string;
  a: string;
  b: string;
}

export interface SweepComparison {
  parameter: string;
  /** [A, B]: differences are B - A. */
  levels: [string, string];
  /** Matched pairs (same other parameters, same repetition). */
  pairs: number;
  /** Finished runs at level A or B without a finished partner. */
  unpaired: string[];
  /** Over every pair. */
  overall: Record<string, PairedStats>;
  /** Per cell of the grouping parameters other than `parameter`. */
  cells: { group: Record<string, string>; pairs: number; measures: Record<string, PairedStats> }[];
}

export interface IdentityBiasSummary {
  /** The parameter whose two levels differ only in `anonymise`. */
  parameter: string;
  anonymised: string;
  visible: string;
  /** identityBias(visible, anonymised) per pair: (conformity - obstinacy) visible minus anonymised. */
  pairs: { anonymised: string; visible: string; group: Record<string, string>; repetition: number; value: number | null }[];
  unpaired: string[];
  overall: PairedStats;
  cells: { group: Record<string, string>; stats: PairedStats }[];
}

export function parseComparison(text: string): ComparisonSpec {
  const match = /^([^=]+)=([^,]+),([^,]+)$/.exec(text.trim());
  if (!match) throw new Error(`--compare takes <param>=<levelA>,<levelB> (e.g. pairing=p1,p2), not "${text}"`);
  return { parameter: match[1]!.trim(), a: match[2]!.trim(), b: match[3]!.trim() };
}

const omit = <T>(record: Record<string, T>, key: string): Record<string, T> => Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));

/** Runs at levels a and b matched on every other parameter and the repetition; anything ambiguous stays unpaired. */
function matchPairs(runs: readonly RunRow[], parameter: string, a: string, b: string): { pairs: { a: RunRow; b: RunRow }[]; unpaired: string[] } {
  const sides = { a: new Map<string, RunRow[]>(), b: new Map<string, RunRow[]>() };
  for (const run of runs) {
    const side = run.params[parameter] === a ? sides.a : run.params[parameter] === b ? sides.b : undefined;
    const slot = canonicalJson({ params: omit(run.params, parameter), repetition: run.repetition });
    side?.set(slot, [...(side.get(slot) ?? []), run]);
  }
  const pairs: { a: RunRow; b: RunRow }[] = [];
  const unpaired: string[] = [];
  for (const [slot, atA] of sides.a) {
    const atB = sides.b.get(slot) ?? [];
    if (atA.length === 1 && atB.length === 1) pairs.push({ a: atA[0]!, b: atB[0]! });
    else unpaired.push(...atA.map((run) => run.id), ...atB.map((run) => run.id));
  }
  for (const [slot, atB] of sides.b) if (!sides.a.has(slot)) unpaired.push(...atB.map((run) => run.id));
  return { pairs, unpaired };
}

/** Pairs by cell of the other grouping parameters; none when there are none (the overall figure is that one cell). */
function groupPairs<P extends { a: RunRow }>(pairs: readonly P[], cellParams: readonly string[]): { group: Record<string, string>; members: P[] }[] {
  if (cellParams.length === 0) return [];
  const cells = new Map<string, { group: Record<string, string>; members: P[] }>();
  for (const pair of pairs) {
    const group = Object.fromEntries(cellParams.map((name) => [name, pair.a.params[name] ?? '']));
    const key = JSON.stringify(cellParams.map((name) => group[name]));
    const cell = cells.get(key) ?? { group, members: [] };
    cell.members.push(pair);
    cells.set(key, cell);
  }
  return [...cells.values()];
}

const cellKey = (group: Record<string, string>, cellParams: readonly string[]) => cellParams.map((name) => group[name]);

export function compareLevels(spec: ComparisonSpec, plans: readonly SweepRunPlan[], runs: readonly RunRow[], by: readonly string[], measures: readonly string[]): SweepComparison {
  const { parameter, a, b } = spec;
  const labels = new Set(plans.flatMap((plan) => (Object.hasOwn(plan.params, parameter) ? [plan.params[parameter]!] : [])));
  if (labels.size === 0) throw new Error(`unknown parameter ${parameter} in --compare: the sweep has ${Object.keys(plans[0]?.params ?? {}).join(', ') || 'none'}`);
  for (const level of [a, b]) if (!labels.has(level)) throw new Error(`parameter ${parameter} has no level ${level}: its levels are ${[...labels].join(', ')}`);
  if (a === b) throw new Error(`--compare needs two different levels of ${parameter}`);
  const { pairs, unpaired } = matchPairs(runs, parameter, a, b);
  const statsOf = (members: readonly { a: RunRow; b: RunRow }[], key: unknown[]) =>
    Object.fromEntries(
      measures.map((measure) => [
        measure,
        describeDifferences(
          differencesOf(members.map((pair) => ({ a: pair.a.measures[measure], b: pair.b.measures[measure] }))),
          JSON.stringify(['compare', parameter, a, b, ...key, measure]),
        ),
      ]),
    );
  const cellParams = by.filter((name) => name !== parameter);
  return {
    parameter,
    levels: [a, b],
    pairs: pairs.length,
    unpaired,
    overall: statsOf(pairs, []),
    cells: groupPairs(pairs, cellParams).map(({ group, members }) => ({ group, pairs: members.length, measures: statsOf(members, cellKey(group, cellParams)) })),
  };
}

/** Debate and dialogic configs both default `anonymise` to true. */
const anonymisedIn = (config: Record<string, unknown>) => config.anonymise !== false;

/** The parameter with two levels whose runs' configs differ only in `anonymise` (true at one level, false at the other). */
export function findAnonymisation(plans: readonly SweepRunPlan[], parameters: readonly string[]): { parameter: string; anonymised: string; visible: string } | null {
  for (const parameter of parameters) {
    const byLabel = new Map<string, Set<boolean>>();
    for (const plan of plans) {
      const label = plan.params[parameter];
      if (label !== undefined) byLabel.set(label, (byLabel.get(label) ?? new Set()).add(anonymisedIn(plan.config)));
    }
    const levels = [...byLabel].filter(([, values]) => values.size === 1).map(([label, values]) => ({ label, anonymised: [...values][0]! }));
    if (byLabel.size !== 2 || levels.length !== 2 || levels[0]!.anonymised === levels[1]!.anonymised) continue;
    const slots = new Map<string, Set<string>>();
    for (const plan of plans) {
      const slot = canonicalJson(omit(plan.params, parameter));
      slots.set(slot, (slots.get(slot) ?? new Set()).add(canonicalJson(omit(plan.config, 'anonymise'))));
    }
    if ([...slots.values()].some((configs) => configs.size !== 1)) continue;
    const anonymised = levels.find((level) => level.anonymised)!.label;
    return { parameter, anonymised, visible: levels.find((level) => !level.anonymised)!.label };
  }
  return null;
}

/** identityBias over the sweep's pairs of runs that differ only in anonymisation (debate sweeps). */
export function identityBiasOf(
  plans: readonly SweepRunPlan[],
  parameters: readonly string[],
  runs: readonly RunRow[],
  analyses: ReadonlyMap<string, DebateAnalysis>,
  by: readonly string[],
): IdentityBiasSummary | null {
  const found = findAnonymisation(plans, parameters);
  if (!found) return null;
  const { parameter, anonymised, visible } = found;
  const matched = matchPairs(runs, parameter, anonymised, visible);
  const cellParams = by.filter((name) => name !== parameter);
  const pairs = matched.pairs.map(({ a, b }) => ({
    a,
    value: identityBias(analyses.get(b.id)!, analyses.get(a.id)!),
    row: { anonymised: a.id, visible: b.id, group: Object.fromEntries(cellParams.map((name) => [name, a.params[name] ?? ''])), repetition: a.repetition },
  }));
  const statsOf = (members: readonly { value: number | null }[], key: unknown[]) =>
    describeDifferences(
      members.map((pair) => pair.value),
      JSON.stringify(['identity-bias', parameter, ...key]),
    );
  return {
    parameter,
    anonymised,
    visible,
    pairs: pairs.map((pair) => ({ ...pair.row, value: pair.value })),
    unpaired: matched.unpaired,
    overall: statsOf(pairs, []),
    cells: groupPairs(pairs, cellParams).map(({ group, members }) => ({ group, stats: statsOf(members, cellKey(group, cellParams)) })),
  };
}
