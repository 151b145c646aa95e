import { distance } from 'fastest-levenshtein';
import type { RunAnalysis } from '../run-protocol.js';
import { readRun, realExchanges, type LooseBaseline, type LooseRun, type LooseTerm } from './read-run.js';
import { termFullText } from './terms.js';

/**
 * Capitulation measures from a run file (ours or a tolerated foreign one): survival by proposer
 * and by persona, immediate-KEEP rate, how drops came about, exchanges per term, how proposers
 * answer revisions, and (when a baseline exists) the edit distance from first to final text.
 */

export interface SurvivalCounts {
  proposed: number;
  submitted: number;
  dropped: number;
  survival_rate: number | null;
}

export interface DialogicMeasures {
  models: { model_a: string; model_b: string };
  personas: { model_a: string; model_b: string };
  proposed: number;
  submitted: number;
  dropped: number;
  survival_rate: number | null;
  by_proposer: Record<string, SurvivalCounts>;
  by_persona: Record<string, SurvivalCounts>;
  immediate_keep: { count: number; rate: number | null };
  drops: { by_verdict: number; by_concession: number; by_cap: number; unexplained: number };
  exchanges: { total: number; mean_per_term: number | null };
  proposer_replies: { total: number; accepted: number; counter_revised: number; conceded: number; yield_rate: number | null };
  edit_distance: null | {
    terms_compared: number;
    mean: number;
    mean_normalised: number;
    by_proposer: Record<string, { terms: number; mean: number; mean_normalised: number }>;
  };
  cycles: { cycle: number; presented: number; kept: number; refined: number; dropped: number }[];
}

interface Classified {
  list: 'submitted_terms' | 'dropped_terms';
  term: LooseTerm;
  proposer: string;
  persona: string;
  exchanges: ReturnType<typeof realExchanges>;
}

const rate = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const round = (value: number | null, digits = 3): number | null => (value === null ? null : Number(value.toFixed(digits)));

export function measureDialogic(input: unknown, options: { baseline?: unknown; maxExchanges?: number } = {}): DialogicMeasures {
  const { run, baseline } = readRun(input, options.baseline);
  const cap = options.maxExchanges ?? 3;
  const terms: Classified[] = (['submitted_terms', 'dropped_terms'] as const).flatMap((list) =>
    run[list].map((term) => ({
      list,
      term,
      proposer: term.generation_metadata.proposed_by,
      persona: term.generation_metadata.persona,
      exchanges: realExchanges(term.generation_metadata.negotiation_history, cap),
    })),
  );
  const dropped = terms.filter((term) => term.list === 'dropped_terms');
  const drops = { by_verdict: 0, by_concession: 0, by_cap: 0, unexplained: 0 };
  for (const term of dropped) {
    const last = term.exchanges.at(-1);
    if (last?.outcome === 'counter_revised') drops.by_cap += 1;
    else if (last?.action === 'DROP') drops.by_verdict += 1;
    else if (last?.action === 'REFINE' && last.outcome === 'dropped') drops.by_concession += 1;
    else drops.unexplained += 1;
  }
  const replies = terms.flatMap((term) => term.exchanges.filter((exchange) => exchange.action === 'REFINE'));
  const count = (outcome: string) => replies.filter((reply) => reply.outcome === outcome).length;
  const accepted = count('accepted');
  const conceded = count('dropped');
  const immediateKeep = terms.filter((term) => term.exchanges[0]?.action === 'KEEP').length;
  const totalExchanges = terms.reduce((sum, term) => sum + term.exchanges.length, 0);
  const submitted = terms.length - dropped.length;

  return {
    models: { model_a: run.model_a?.name ?? 'model_a', model_b: run.model_b?.name ?? 'model_b' },
    personas: { model_a: run.model_a?.persona ?? 'unknown', model_b: run.model_b?.persona ?? 'unknown' },
    proposed: terms.length,
    submitted,
    dropped: dropped.length,
    survival_rate: round(rate(submitted, terms.length)),
    by_proposer: survivalBy(terms, (term) => term.proposer),
    by_persona: survivalBy(terms, (term) => term.persona),
    immediate_keep: { count: immediateKeep, rate: round(rate(immediateKeep, terms.length)) },
    drops,
    exchanges: { total: totalExchanges, mean_per_term: round(rate(totalExchanges, terms.length)) },
    proposer_replies: {
      total: replies.length,
      accepted,
      counter_revised: count('counter_revised'),
      conceded,
      yield_rate: round(rate(accepted + conceded, replies.length)),
    },
    edit_distance: baseline ? editDistances(run, baseline) : null,
    cycles: run.cycles
      .filter((cycle) => cycle.phase === 'negotiation')
      .map((cycle) => ({
        cycle: cycle.cycle_number,
        presented: numberField(cycle, 'terms_presented'),
        kept: numberField(cycle, 'terms_kept'),
        refined: numberField(cycle, 'terms_refined'),
        dropped: numberField(cycle, 'terms_dropped'),
      })),
  };
}

function survivalBy(terms: readonly Classified[], keyOf: (term: Classified) => string): Record<string, SurvivalCounts> {
  const groups: Record<string, SurvivalCounts> = {};
  for (const term of terms) {
    const group = (groups[keyOf(term)] ??= { proposed: 0, submitted: 0, dropped: 0, survival_rate: null });
    group.proposed += 1;
    if (term.list === 'submitted_terms') group.submitted += 1;
    else group.dropped += 1;
  }
  for (const group of Object.values(groups)) group.survival_rate = round(rate(group.submitted, group.proposed));
  return groups;
}

function editDistances(run: LooseRun, baseline: LooseBaseline): DialogicMeasures['edit_distance'] {
  const rows: { proposer: string; distance: number; normalised: number }[] = [];
  for (const proposal of baseline.proposals) {
    if (proposal.final_list === undefined || proposal.final_index === undefined) continue;
    const final = run[proposal.final_list][proposal.final_index];
    if (!final) continue;
    const before = termFullText(proposal.original);
    const after = termFullText(final);
    const d = distance(before, after);
    rows.push({ proposer: proposal.proposed_by, distance: d, normalised: d / Math.max(before.length, after.length, 1) });
  }
  if (rows.length === 0) return null;
  const summarise = (subset: typeof rows) => ({
    terms: subset.length,
    mean: round(subset.reduce((sum, row) => sum + row.distance, 0) / subset.length, 1) ?? 0,
    mean_normalised: round(subset.reduce((sum, row) => sum + row.normalised, 0) / subset.length) ?? 0,
  });
  const all = summarise(rows);
  const by_proposer: Record<string, ReturnType<typeof summarise>> = {};
  for (const proposer of new Set(rows.map((row) => row.proposer))) {
    by_proposer[proposer] = summarise(rows.filter((row) => row.proposer === proposer));
  }
  return { terms_compared: all.terms, mean: all.mean, mean_normalised: all.mean_normalised, by_proposer };
}

function numberField(record: Record<string, unknown>, field: string): number {
  const value = record[field];
  return typeof value === 'number' ? value : 0;
}

const pct = (value: number | null): string => (value === null ? '-' : `${(value * 100).toFixed(1)}%`);

export function renderMeasures(m: DialogicMeasures): string {
  const rows: [string, string][] = [
    ['models', `A ${m.models.model_a} (${m.personas.model_a}) / B ${m.models.model_b} (${m.personas.model_b})`],
    ['terms proposed / submitted / dropped', `${m.proposed} / ${m.submitted} / ${m.dropped} (survival ${pct(m.survival_rate)})`],
    ...Object.entries(m.by_proposer).map(([who, s]): [string, string] => [`survival, proposer ${who}`, `${s.submitted}/${s.proposed} (${pct(s.survival_rate)})`]),
    ...Object.entries(m.by_persona).map(([who, s]): [string, string] => [`survival, persona ${who}`, `${s.submitted}/${s.proposed} (${pct(s.survival_rate)})`]),
    ['immediate KEEP', `${m.immediate_keep.count} (${pct(m.immediate_keep.rate)})`],
    ['drops by verdict / concession / cap', `${m.drops.by_verdict} / ${m.drops.by_concession} / ${m.drops.by_cap}${m.drops.unexplained ? ` (+${m.drops.unexplained} unexplained)` : ''}`],
    ['mean exchanges per term', m.exchanges.mean_per_term === null ? '-' : m.exchanges.mean_per_term.toFixed(2)],
    [
      'proposer answers: accept / counter / concede',
      `${m.proposer_replies.accepted} / ${m.proposer_replies.counter_revised} / ${m.proposer_replies.conceded} (yields ${pct(m.proposer_replies.yield_rate)})`,
    ],
    [
      'edit distance first -> final text',
      m.edit_distance
        ? `mean ${m.edit_distance.mean} chars, ${pct(m.edit_distance.mean_normalised)} of length, over ${m.edit_distance.terms_compared} terms`
        : 'no baseline stored',
    ],
    ...m.cycles.map((c): [string, string] => [`cycle ${c.cycle}`, `presented ${c.presented}, kept ${c.kept}, refined ${c.refined}, dropped ${c.dropped}`]),
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n');
}

export function analyzeDialogic(output: unknown, options: { baseline?: unknown; maxExchanges?: number } = {}): RunAnalysis {
  const measures = measureDialogic(output, options);
  return { measures: measures as unknown as Record<string, unknown>, table: renderMeasures(measures) };
}
