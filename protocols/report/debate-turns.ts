import type { DebateTranscript } from '../../schemas/debate.js';
import type { DebateAnalysis } from '../debate/analyze.js';
import { debateFailures, failureLine } from '../debate/failures.js';
import type { RoundMeasures } from '../debate/round-measures.js';
import { mdText } from '../markdown.js';
import { esc, fmt } from './html.js';

/**
 * What the agents said, round by round. An answer may be a plain string or a weight map
 * ({yes: 0.7, no: 0.3}); anything else a newer transcript carries is shown as JSON, never thrown on.
 */
export function answerText(answer: unknown): string {
  if (typeof answer === 'string') return answer;
  if (answer === null || answer === undefined) return '–';
  if (typeof answer === 'object' && !Array.isArray(answer)) {
    const entries = Object.entries(answer as Record<string, unknown>);
    if (entries.every(([, weight]) => typeof weight === 'number')) {
      return (entries as [string, number][]).sort((a, b) => b[1] - a[1]).map(([option, weight]) => `${option} ${fmt(weight, 2)}`).join(', ');
    }
  }
  return JSON.stringify(answer);
}

/** A round's majority, or its tie: "tie: A, B" (the measures report ties, never break them). */
export function majorityText(round: Pick<RoundMeasures, 'majorityAnswer' | 'tiedAnswers'>): string {
  if (round.majorityAnswer !== null) return answerText(round.majorityAnswer);
  return round.tiedAnswers?.length ? `tie: ${round.tiedAnswers.map(answerText).join(', ')}` : '–';
}

/** An agent as the debate showed it ("Agent 1"), from its id (`agent-1`). */
export function agentLabel(transcript: Pick<DebateTranscript, 'agents'>, agentId: string): string {
  return transcript.agents.find((agent) => agent.id === agentId)?.label ?? agentId;
}

/**
 * Items of one round (turns, judges' scores) in the order the debate lists its agents: agents answer
 * at the same time, so a round records their turns in the order they finished.
 */
export function inAgentOrder<T extends { agentId: string }>(transcript: Pick<DebateTranscript, 'agents'>, items: readonly T[]): T[] {
  const order = (agentId: string) => {
    const index = transcript.agents.findIndex((agent) => agent.id === agentId);
    return index === -1 ? transcript.agents.length : index;
  };
  return [...items].sort((a, b) => order(a.agentId) - order(b.agentId));
}

/** The two sycophancy signals, named apart: the measure s_t (JS and evidence overlap both fell) and the RCA judge's verdicts. */
export function sycophancySignals(transcript: DebateTranscript, analysis: DebateAnalysis): { st: string; rca: string; rcaRun: boolean } {
  const st = analysis.measures.summary.sycophancyRounds;
  const flagged = transcript.rounds.flatMap((round) => (round.rca?.verdicts ?? []).filter((v) => v.verdict === 'INCONSISTENT_SYCOPHANTIC').map((v) => `${agentLabel(transcript, v.agentId)} (round ${round.round})`));
  const rcaRun = transcript.rounds.some((round) => round.rca !== undefined);
  return { st: st.length ? `rounds ${st.join(', ')}` : 'none', rca: !rcaRun ? 'not run' : flagged.length ? flagged.join(', ') : 'none', rcaRun };
}

type Turn = DebateTranscript['rounds'][number]['turns'][number];

const distributionText = (distribution: Record<string, number> | undefined): string =>
  distribution && Object.keys(distribution).length ? answerText(distribution) : '';

/** One collapsible block per turn: the summary line gives agent, answer and confidence; the body the reasoning, claims, references and evidence. */
function turnHtml(turn: Turn): string {
  const record = turn.record;
  if (turn.status !== 'ok' || !record) {
    return `<details class="turn"><summary><b>${esc(turn.label)}</b> <span class="tag dismissed">${esc(turn.status)}</span></summary><dl><dt>error</dt><dd>${esc(turn.error ?? 'no valid reply')}</dd>${turn.raw ? `<dt>raw reply</dt><dd>${esc(turn.raw.slice(0, 2000))}</dd>` : ''}</dl></details>`;
  }
  const rows: [string, string][] = [
    ['answer', esc(answerText(record.answer))],
    ['confidence', esc(fmt(record.confidence, 2))],
    ['reasoning', record.reasoning?.trim() ? esc(record.reasoning) : '<span class="muted">none given</span>'],
  ];
  const distribution = distributionText(record.distribution);
  if (distribution) rows.push(['distribution', esc(distribution)]);
  if (record.claims.length) rows.push(['claims', record.claims.map((c) => `<b>${esc(c.id)}</b> ${esc(c.text)}`).join('<br>')]);
  if (record.references.length) {
    rows.push(['references', record.references.map((r) => `${esc(r.stance)} ${esc(r.targetClaim ?? r.targetAgent)}${r.resolved ? '' : ' <span class="muted">(unresolved)</span>'}${r.note ? ` <span class="muted">${esc(r.note)}</span>` : ''}`).join('<br>')]);
  }
  if (record.evidence.length) rows.push(['evidence', esc(record.evidence.join(', '))]);
  const confidence = record.confidence === undefined ? '' : ` <span class="muted">confidence ${esc(fmt(record.confidence, 2))}</span>`;
  return `<details class="turn"><summary><b>${esc(turn.label)}</b> → ${esc(answerText(record.answer))}${confidence}</summary><dl>${rows.map(([dt, dd]) => `<dt>${esc(dt)}</dt><dd>${dd}</dd>`).join('')}</dl></details>`;
}

export function turnsHtml(transcript: DebateTranscript, rounds: readonly RoundMeasures[]): string {
  return transcript.rounds
    .map((round) => {
      const m = rounds.find((r) => r.round === round.round);
      const head = `<h3>Round ${esc(round.round)}${m ? ` <span class="muted">majority: ${esc(majorityText(m))}</span>` : ''}</h3>`;
      return head + inAgentOrder(transcript, round.turns).map(turnHtml).join('\n');
    })
    .join('\n');
}

/** The same in Markdown: one table row per turn, reasoning cut at 300 characters. */
export function turnsMarkdownRows(transcript: DebateTranscript): (string | number | null)[][] {
  return transcript.rounds.flatMap((round) =>
    inAgentOrder(transcript, round.turns).map((turn) => {
      const record = turn.status === 'ok' ? turn.record : undefined;
      if (!record) return [round.round, mdText(turn.label), turn.status, null, mdText(turn.error ?? '', 120)];
      return [round.round, mdText(turn.label), mdText(answerText(record.answer), 80), fmt(record.confidence, 2), mdText(record.reasoning ?? '', 300) || null];
    }),
  );
}

const FAILURES_INTRO = 'Some calls gave nothing usable, so the measures leave these turns out';

/** The debate's failed turns and judge calls, marked where the report opens (empty when there are none). */
export function failuresHtml(transcript: DebateTranscript): string {
  const failures = debateFailures(transcript);
  if (failures.length === 0) return '';
  return `<p class="warn"><b>${esc(FAILURES_INTRO)}:</b><br>${failures.map((failure) => esc(failureLine(failure))).join('<br>')}</p>`;
}

export function failuresMarkdown(transcript: DebateTranscript): string {
  const failures = debateFailures(transcript);
  if (failures.length === 0) return '';
  return `**${FAILURES_INTRO}:**\n\n${failures.map((failure) => `- ${mdText(failureLine(failure), 300)}`).join('\n')}\n`;
}
