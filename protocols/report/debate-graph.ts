import type { DebateTranscript, Stance } from '../../schemas/debate.js';
import type { DebateGraph } from '../debate/graph.js';
import { answerText } from './debate-turns.js';
import { boxWidth, dotString as q, dotToSvg, wrapLabel } from './graphviz.js';

export const STANCE_COLORS: Record<Stance, string> = { rebut: '#c0392b', qualify: '#8e44ad', support: '#1e7b4a', concede: '#d68910', extend: '#2f5da8' };

/**
 * The debate graph of one round in DOT: agents (with the answer they gave that round), the claims
 * made that round, earlier claims engaged that round (dotted), authorship (grey, dashed) and
 * references coloured by stance. A reference to an agent without a claim is drawn agent to agent.
 */
export function roundDot(transcript: DebateTranscript, graph: DebateGraph, round: number): string {
  const answers = new Map<string, string>();
  for (const turn of transcript.rounds.find((r) => r.round === round)?.turns ?? []) {
    answers.set(turn.agentId, turn.status === 'ok' && turn.record ? answerText(turn.record.answer) : turn.status);
  }
  const edges = graph.edges.filter((edge) => edge.round === round);
  const claimIds = new Set(edges.filter((edge) => edge.kind !== 'agent').map((edge) => edge.to));
  const claims = graph.nodes.filter((node) => node.kind === 'claim' && claimIds.has(node.id));
  const claimOwner = new Map(claims.map((claim) => [claim.id, claim.agentId]));
  const lines = [
    `digraph ${q(`round ${round}`)} {`,
    '  rankdir=LR; bgcolor="white"; pad=0.2; nodesep=0.25; ranksep=0.6;',
    '  node [fontname="Helvetica", fontsize=11, color="#8a94a6", penwidth=1.2];',
    '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
  ];
  for (const agent of transcript.agents) {
    const answer = answers.get(agent.id);
    const label = wrapLabel(`${agent.label}${answer ? ` → ${answer}` : ''}`, 26, 3);
    lines.push(`  ${q(agent.id)} [label=${q(label)}, width=${boxWidth(label, 11)}, shape=box, style="rounded,filled", fillcolor="#e1ebfb", color="#2f5da8"];`);
  }
  for (const claim of claims) {
    const earlier = claim.round !== round;
    const label = `${claim.label}${earlier ? ` (round ${claim.round})` : ''}\n${wrapLabel(claim.text ?? '', 30, 3)}`;
    lines.push(`  ${q(claim.id)} [label=${q(label)}, width=${boxWidth(label, 10)}, shape=box, style="filled${earlier ? ',dotted' : ''}", fillcolor="#f6f8fb", fontsize=10];`);
  }
  for (const edge of edges) {
    if (edge.kind === 'authored') {
      lines.push(`  ${q(edge.from)} -> ${q(edge.to)} [style=dashed, color="#b5bcc8", arrowhead=none];`);
      continue;
    }
    const stance = edge.stance ?? 'extend';
    // An agent edge already drawn through one of the target's claims is not drawn twice.
    if (edge.kind === 'agent' && edges.some((e) => e.kind === 'claim' && e.from === edge.from && e.stance === edge.stance && claimOwner.get(e.to) === edge.to)) continue;
    const label = `${stance}${edge.count > 1 ? ` ×${edge.count}` : ''}`;
    lines.push(`  ${q(edge.from)} -> ${q(edge.to)} [label=${q(label)}, color=${q(STANCE_COLORS[stance])}, fontcolor=${q(STANCE_COLORS[stance])}, penwidth=1.8];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

export async function roundGraphSvg(transcript: DebateTranscript, graph: DebateGraph, round: number): Promise<string> {
  return dotToSvg(roundDot(transcript, graph, round));
}

/**
 * The influence graph of the whole debate in DOT: agents only (with their first and final answer),
 * one edge per (from, to, stance) summed over every round, its label naming the rounds and its
 * width growing with the count. Laid out by `dot`, which places each edge label beside its edge,
 * clear of the arrowheads (circo put them on top of each other).
 */
export function wholeDebateDot(transcript: DebateTranscript, graph: DebateGraph, answers: ReadonlyMap<string, { first: string | null; final: string | null }>): string {
  const totals = new Map<string, { from: string; to: string; stance: Stance; count: number; rounds: Set<number> }>();
  for (const edge of graph.edges) {
    if (edge.kind !== 'agent') continue;
    const stance = edge.stance ?? 'extend';
    const key = `${edge.from}\u0000${edge.to}\u0000${stance}`;
    const total = totals.get(key) ?? { from: edge.from, to: edge.to, stance, count: 0, rounds: new Set<number>() };
    total.count += edge.count;
    total.rounds.add(edge.round);
    totals.set(key, total);
  }
  const lines = [
    'digraph "whole debate" {',
    '  layout=dot; rankdir=LR; bgcolor="white"; pad=0.3; nodesep=0.5; ranksep=1.3;',
    '  node [fontname="Helvetica", fontsize=13, shape=box, style="rounded,filled", fillcolor="#e1ebfb", color="#2f5da8", penwidth=1.2];',
    '  edge [fontname="Helvetica", fontsize=11, arrowsize=0.8];',
  ];
  for (const agent of transcript.agents) {
    const a = answers.get(agent.id);
    const path = a ? `${a.first ?? '–'} → ${a.final ?? '–'}` : '';
    const label = `${agent.label}${path ? `\n${wrapLabel(path, 26, 2)}` : ''}`;
    lines.push(`  ${q(agent.id)} [label=${q(label)}, width=${boxWidth(label, 13)}];`);
  }
  for (const t of totals.values()) {
    const rounds = [...t.rounds].sort((a, b) => a - b).map((r) => `r${r}`).join(', ');
    const label = `${t.stance}${t.count > 1 ? ` ×${t.count}` : ''} (${rounds})`;
    lines.push(`  ${q(t.from)} -> ${q(t.to)} [label=${q(label)}, color=${q(STANCE_COLORS[t.stance])}, fontcolor=${q(STANCE_COLORS[t.stance])}, penwidth=${Math.min(5, 1.2 + 0.8 * t.count).toFixed(1)}];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}
