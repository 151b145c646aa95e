import {
  DIALOGIC_PROTOCOL,
  DIALOGIC_SCHEMA_VERSION,
  DialogicBaseline,
  DialogicRun,
  type CycleMetadata,
  type Persona,
  type TermText,
} from '../../schemas/dialogic.js';
import { toDialogicTerm, type NegotiatedTerm } from './terms.js';

export interface RunFacts {
  names: [string, string];
  personas: [Persona, Persona];
  temperature: number;
}

export function cycleMetadata(
  facts: RunFacts,
  cycle: number,
  phase: CycleMetadata['phase'],
  counts: { presented: number; kept?: number; refined?: number; dropped?: number },
  exhaustion: { model_a: boolean; model_b: boolean } = { model_a: false, model_b: false },
): CycleMetadata {
  return {
    cycle_number: cycle,
    phase,
    models: [...facts.names],
    personas: [...facts.personas],
    temperature: facts.temperature,
    terms_presented: counts.presented,
    terms_kept: counts.kept ?? 0,
    terms_refined: counts.refined ?? 0,
    terms_dropped: counts.dropped ?? 0,
    exhaustion_signals: { ...exhaustion },
  };
}

export function negotiationMetadata(facts: RunFacts, cycle: number, terms: readonly NegotiatedTerm[]): CycleMetadata {
  const count = (status: NegotiatedTerm['status']) => terms.filter((term) => term.status === status).length;
  return cycleMetadata(facts, cycle, 'negotiation', {
    presented: terms.length,
    kept: count('KEEP'),
    refined: count('REFINED'),
    dropped: count('DROPPED'),
  });
}

/** The seed's full run file and the baseline, both validated before anyone writes them. */
export function assembleRun(
  facts: RunFacts,
  cycles: CycleMetadata[],
  negotiated: readonly NegotiatedTerm[],
  independent: { model_a: TermText[]; model_b: TermText[] },
  date: string,
): { run: DialogicRun; baseline: DialogicBaseline } {
  const contributedBy = `${facts.names[0]} + ${facts.names[1]}`;
  const submitted: DialogicRun['submitted_terms'] = [];
  const dropped: DialogicRun['dropped_terms'] = [];
  const proposals: DialogicBaseline['proposals'] = [];
  for (const term of negotiated) {
    const list = term.status === 'DROPPED' ? dropped : submitted;
    list.push(toDialogicTerm(term, contributedBy, date));
    proposals.push({
      id: term.proposed.id,
      cycle_introduced: term.proposed.cycle,
      proposed_by: term.proposed.proposer,
      persona: term.proposed.persona,
      original: term.proposed.text,
      final_list: term.status === 'DROPPED' ? 'dropped_terms' : 'submitted_terms',
      final_index: list.length - 1,
    });
  }
  const run = DialogicRun.parse({
    protocol: DIALOGIC_PROTOCOL,
    model_a: { name: facts.names[0], persona: facts.personas[0] },
    model_b: { name: facts.names[1], persona: facts.personas[1] },
    temperature: facts.temperature,
    cycles,
    submitted_terms: submitted,
    dropped_terms: dropped,
  });
  const baseline = DialogicBaseline.parse({ schema_version: DIALOGIC_SCHEMA_VERSION, independent_generation: independent, proposals });
  return { run, baseline };
}
