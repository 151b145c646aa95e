import type { DeliberationState } from '../../schemas/argumentation.js';
import type { AuditRecord } from '../../state/audit-log.js';
import { challengeTimeline, phaseOf, refText } from './argumentation-data.js';
import { mdQuote, mdSection, mdTable, mdText } from './markdown.js';

export function argumentationMarkdown(state: DeliberationState, audit: readonly AuditRecord[] = []): string {
  const b = state.buckets;
  const point = (ref: string) => `**${mdText(ref)}** ${mdText(refText(state, ref), 240)}`;
  const head = [
    '# Argumentation deliberation',
    '',
    mdQuote(state.question),
    '',
    `${mdText(state.id)} · mode ${state.mode} · framing ${state.framing} · ${state.n} iteration(s) · ${state.status}${state.termination ? ` · ended by ${state.termination.reason}` : ''}`,
    '',
    `Agreed ${b.agreed.length} · dismissed ${b.dismissed.length} · unresolved ${b.unresolved.length} · not evaluated ${state.notEvaluated.length} · challenges ${state.challenges.length} · ledger facts ${state.ledger.length}`,
  ];
  if (state.arbitration?.warning) head.push('', `**Warning:** the arbiter flagged ${Math.round(state.arbitration.flaggedRatio * 100)}% of the items.`);
  if (state.report?.json.inconclusive) head.push('', `**Inconclusive.** To unblock: ${state.report.json.unblock.map((u) => mdText(u)).join('; ')}`);
  if (!state.report) head.push('', '_Not synthesized yet: the state as it stands._');
  const { spans } = challengeTimeline(state, audit);
  return [
    head.join('\n') + '\n',
    mdSection('Agreed', b.agreed.map((i) => `- ${point(i.pointId)}  \n  ${i.claimType}, evidence ${i.evidenceType}${i.evidence ? `: ${mdText(i.evidence)}` : ''}. ${mdText(i.reason)}`).join('\n')),
    mdSection('Dismissed', b.dismissed.map((i) => `- ${point(i.pointId)}  \n  ${i.tag}: ${mdText(i.reason)}`).join('\n')),
    mdSection('Unresolved', b.unresolved.map((i) => `- ${point(i.pointId)}  \n  ${i.status}: ${mdText(i.crux)}${i.measurement ? ` (measure ${mdText(i.measurement)}; threshold ${mdText(i.threshold)}; ${mdText(i.verdictChange)})` : ''}`).join('\n')),
    mdSection('Not evaluated', state.notEvaluated.map((i) => `- ${point(i.ref)}  \n  ${i.reason}${i.note ? `: ${mdText(i.note)}` : ''}`).join('\n')),
    state.surfacedQuestions.length ? mdSection('Surfaced questions', state.surfacedQuestions.map((q) => `- ${mdText(q.text)}`).join('\n')) : '',
    mdSection(
      'Challenges',
      spans.length
        ? mdTable(
            ['challenge', 'type', 'objection', 'outcome', 'iterations', 'phases'],
            state.challenges.map((c, index) => {
              const span = spans[index]!;
              const phases = [...new Set([phaseOf(state, span.from), phaseOf(state, span.to)].filter(Boolean))].join(' → ');
              return [`${mdText(c.id)} on ${mdText(c.pointId)}`, c.type, mdText(c.objection, 160), span.outcome, `${span.from}–${span.to}`, phases || '–'];
            }),
          )
        : '',
    ),
    mdSection(
      'Ledger',
      state.ledger.length
        ? mdTable(
            ['fact', 'text', 'provenance', 'source', 'state'],
            state.ledger.map((f) => [mdText(f.id), mdText(f.text, 200), f.tag, mdText([f.reference, f.justification].filter(Boolean).join(' · '), 160), f.refuted ? 'refuted' : f.supersededBy ? `superseded by ${mdText(f.supersededBy)}` : 'active']),
          )
        : '',
    ),
  ]
    .filter(Boolean)
    .join('\n');
}
