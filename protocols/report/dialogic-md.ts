import { renderMeasures } from '../dialogic/analyze.js';
import { baselineColumns, dialogicView, proposerAnswers } from './dialogic-data.js';
import { mdSection, mdTable, mdText } from '../markdown.js';

const pct = (value: number | null): string => (value === null ? '–' : `${(value * 100).toFixed(1)}%`);

export function dialogicMarkdown(runInput: unknown, baselineInput?: unknown, audit: readonly { type: string; [key: string]: unknown }[] = []): string {
  const view = dialogicView(runInput, baselineInput);
  const answers = proposerAnswers(view, audit);
  const counters = [...answers].flatMap(([term, byExchange]) => [...byExchange].filter(([, a]) => a.counterRevision).map(([exchange, a]) => [mdText(term.term, 80), exchange, mdText(a.reason, 200), mdText(a.counterRevision, 300)]));
  const m = view.measures;
  const { columns, fromBaseline } = baselineColumns(view);
  const survivalRows = (label: string, groups: typeof m.by_proposer) => Object.entries(groups).map(([who, s]) => [label, mdText(who), s.proposed, s.submitted, s.dropped, pct(s.survival_rate)]);
  return [
    `# Dialogic run\n\n${mdText(m.models.model_a)} (${mdText(m.personas.model_a)}) and ${mdText(m.models.model_b)} (${mdText(m.personas.model_b)}) · temperature ${view.run.temperature ?? '–'} · ${m.cycles.length} negotiation cycle(s)\n`,
    mdSection('Measures', '```\n' + renderMeasures(m).replace(/```/g, "'''") + '\n```'),
    mdSection('Survival', mdTable(['by', 'who', 'proposed', 'submitted', 'dropped', 'survival'], [...survivalRows('proposer', m.by_proposer), ...survivalRows('persona', m.by_persona)])),
    mdSection('Cycles', mdTable(['cycle', 'presented', 'kept', 'refined', 'dropped'], m.cycles.map((c) => [c.cycle, c.presented, c.kept, c.refined, c.dropped]))),
    mdSection(
      fromBaseline ? 'Baselines' : 'First-cycle terms (no baseline stored)',
      columns.map((c) => `**${mdText(c.title)}**: ${c.terms.map((t) => mdText(t.term, 80)).join(', ') || '_none_'}`).join('\n\n'),
    ),
    mdSection(
      'Terms',
      mdTable(
        ['term', 'final', 'cycle', 'proposer', 'persona', 'exchanges', 'last action'],
        view.terms.map(({ term, list }) => {
          const meta = term.generation_metadata;
          const last = meta.negotiation_history.at(-1);
          return [mdText(term.term, 80), list, meta.cycle_introduced ?? null, mdText(meta.proposed_by), mdText(meta.persona), meta.negotiation_history.length, last ? `${mdText(last.action)} → ${mdText(last.outcome)}` : null];
        }),
      ),
    ),
    counters.length ? mdSection("Proposers' counter-revisions", mdTable(['term', 'exchange', 'reason', 'counter-revision'], counters)) : '',
  ].filter(Boolean).join('\n');
}
