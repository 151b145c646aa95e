import { measureDialogic, type DialogicMeasures } from '../dialogic/analyze.js';
import { readRun, type LooseBaseline, type LooseRun, type LooseTerm } from '../dialogic/read-run.js';

/** A dialogic run as the report shows it: the run (ours or foreign), its baseline when stored, the measures. */
export interface DialogicView {
  run: LooseRun;
  baseline?: LooseBaseline & { independent_generation?: { model_a?: { term: string; definition?: string }[]; model_b?: { term: string; definition?: string }[] } };
  measures: DialogicMeasures;
  terms: { term: LooseTerm; list: 'submitted' | 'dropped' }[];
}

export function dialogicView(runInput: unknown, baselineInput?: unknown): DialogicView {
  const { run, baseline } = readRun(runInput, baselineInput);
  const measures = measureDialogic(runInput, baselineInput === undefined ? {} : { baseline: baselineInput });
  const terms = [
    ...run.submitted_terms.map((term) => ({ term, list: 'submitted' as const })),
    ...run.dropped_terms.map((term) => ({ term, list: 'dropped' as const })),
  ].sort((a, b) => (a.term.generation_metadata.cycle_introduced ?? 0) - (b.term.generation_metadata.cycle_introduced ?? 0));
  return { run, ...(baseline && { baseline: baseline as DialogicView['baseline'] }), measures, terms };
}

/** The run file's slot keys (model_a, model_b) as the page names the two models; another proposer key is shown as written. */
export function slotLabel(slot: string): string {
  return slot === 'model_a' ? 'Model A' : slot === 'model_b' ? 'Model B' : slot;
}

export interface BaselineColumn {
  title: string;
  terms: { term: string; definition: string }[];
}

/**
 * Each model's vocabulary before any dialogue: from the stored baseline, or, for a run without one,
 * the first-cycle terms each model proposed as the run file records them (after negotiation).
 */
export function baselineColumns(view: DialogicView): { columns: BaselineColumn[]; fromBaseline: boolean } {
  const generation = view.baseline?.independent_generation;
  const name = (slot: 'model_a' | 'model_b') => `${slotLabel(slot)}: ${view.run[slot]?.name ?? slot} (${view.run[slot]?.persona ?? 'unknown'})`;
  if (generation?.model_a && generation.model_b) {
    return {
      fromBaseline: true,
      columns: (['model_a', 'model_b'] as const).map((slot) => ({ title: name(slot), terms: (generation[slot] ?? []).map((t) => ({ term: t.term, definition: t.definition ?? '' })) })),
    };
  }
  const first = Math.min(...view.terms.map((t) => t.term.generation_metadata.cycle_introduced ?? 1));
  return {
    fromBaseline: false,
    columns: (['model_a', 'model_b'] as const).map((slot) => ({
      title: name(slot),
      terms: view.terms
        .filter((t) => t.term.generation_metadata.proposed_by === slot && (t.term.generation_metadata.cycle_introduced ?? 1) === first)
        .map((t) => ({ term: t.term.term, definition: t.term.definition })),
    })),
  };
}

/** A revision may be JSON text in foreign runs: show its term and definition, not raw braces. */
export function revisionText(value: unknown): string {
  if (typeof value !== 'string') return value === undefined || value === null ? '' : JSON.stringify(value);
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as { term?: unknown; definition?: unknown };
      if (typeof parsed.term === 'string') return `${parsed.term}: ${typeof parsed.definition === 'string' ? parsed.definition : ''}`;
    } catch {
      // not JSON after all: shown as written
    }
  }
  return value;
}

/** What the proposer answered to a revision (from the run's audit log: the run file keeps only the responder's revision). */
export interface ProposerAnswer {
  decision: string;
  reason: string;
  counterRevision: string;
}

/**
 * The proposer's answers of each term, by exchange: the term's proposal id comes from the baseline
 * (final list and index), the answers from the `proposer_reply` records of the audit log.
 */
export function proposerAnswers(view: DialogicView, audit: readonly { type: string; [key: string]: unknown }[] = []): Map<LooseTerm, Map<number, ProposerAnswer>> {
  const out = new Map<LooseTerm, Map<number, ProposerAnswer>>();
  const proposals = view.baseline?.proposals ?? [];
  const replies = audit.filter((r) => r.type === 'proposer_reply' && typeof r.term_id === 'string');
  if (!proposals.length || !replies.length) return out;
  for (const proposal of proposals) {
    const id = (proposal as { id?: unknown }).id;
    const list = proposal.final_list === 'dropped_terms' ? view.run.dropped_terms : view.run.submitted_terms;
    const term = proposal.final_index === undefined ? undefined : list[proposal.final_index];
    if (typeof id !== 'string' || !term) continue;
    const byExchange = new Map<number, ProposerAnswer>();
    for (const reply of replies.filter((r) => r.term_id === id)) {
      const revision = reply.counter_revision as { term?: unknown; definition?: unknown } | null | undefined;
      byExchange.set(Number(reply.exchange), {
        decision: String(reply.decision ?? ''),
        reason: typeof reply.reason === 'string' ? reply.reason : '',
        counterRevision: revision && typeof revision === 'object' ? revisionText(JSON.stringify(revision)) : '',
      });
    }
    if (byExchange.size) out.set(term, byExchange);
  }
  return out;
}
