import type { SynthesisReport } from '../../schemas/argumentation.js';

type Entry = SynthesisReport['agreed'][number];
const s = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

function section(title: string, entries: string[]): string {
  return `## ${title}\n\n${entries.length ? entries.join('\n') : '_none_'}\n`;
}

function line(e: Entry, detail: string): string {
  return `- **${e.ref}** ${e.text.replace(/\s+/g, ' ')}\n  ${detail}`;
}

export function renderMarkdown(r: SynthesisReport): string {
  const head = [
    `# Deliberation report`,
    '',
    `> ${r.question.replace(/\n/g, '\n> ')}`,
    '',
    `Mode ${r.mode} · framing ${r.framing} · ${r.iterations} iteration(s)${r.termination ? ` · ended by ${r.termination.reason}` : ''}`,
  ];
  if (r.arbitration?.warning) head.push('', `**Warning:** the arbiter flagged ${Math.round(r.arbitration.flaggedRatio * 100)}% of the items; treat this result with caution.`);
  if (r.inconclusive) head.push('', `**Inconclusive:** nothing was agreed or dismissed. To unblock: ${r.unblock.join('; ') || 'see Unresolved'}.`);
  if (r.stressTest?.objection) head.push('', `Stress test (${s(r.stressTest.severity)}): ${r.stressTest.objection} Response: ${s(r.stressTest.response)}`);
  return [
    head.join('\n'),
    section('AGREED', r.agreed.map((e) => line(e, `${s(e.claimType)}, evidence ${s(e.evidenceType)}${e.evidence ? `: ${s(e.evidence)}` : ''}. ${s(e.reason)}`))),
    section('DISMISSED', r.dismissed.map((e) => line(e, `${s(e.tag)}: ${s(e.reason)}`))),
    section('UNRESOLVED', r.unresolved.map((e) => line(e, `${s(e.status)}: ${s(e.crux)}${e.measurement ? ` (measure ${s(e.measurement)}; threshold ${s(e.threshold)}; ${s(e.verdictChange)})` : ''}`))),
    section('SURFACED QUESTIONS', r.surfacedQuestions.map((q) => `- ${q}`)),
    section('NOT EVALUATED', r.notEvaluated.map((e) => line(e, `${s(e.reason)}${e.note ? `: ${s(e.note)}` : ''}`))),
  ].join('\n');
}
