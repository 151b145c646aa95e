import type { DebateTranscript, Stance } from '../../schemas/debate.js';
import type { DebateGraph } from '../debate/graph.js';
import { dotString as q, dotToSvg, wrapLabel } from './graphviz.js';

export const STANCE_COLORS: Record<Stance, string> = { rebut: '#c0392b', support: '#1e7b4a', concede: '#d68910', extend: '#2f5da8' };

/**
 * The debate graph of one round in DOT: agents (with the answer they gave that round), the claims
 * made that round, earlier claims engaged that round (dotted), authorship (grey, dashed) and
 * references coloured by stance. A reference to an agent without a claim is drawn agent to agent.
 */
export function roundDot(transcript: DebateTranscript, graph: DebateGraph, round: number): string {
  const answers = new Map<string, string>();
  for (const turn of transcript.rounds.find((r) => r.round === round)?.turns ?? []) {
    answers.set(turn.agentId, turn.status === 'ok' && turn.record ? turn.record.answer : turn.status);
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
    lines.push(`  ${q(agent.id)} [label=${q(label)}, shape=box, style="rounded,filled", fillcolor="#e1ebfb", color="#2f5da8"];`);
  }
  for (const claim of claims) {
    const earlier = claim.round !== round;
    const label = `${claim.label}${earlier ? ` (round ${claim.round})` : ''}\n${wrapLabel(claim.text ?? '', 30, 3)}`;
    lines.push(`  ${q(claim.id)} [label=${q(label)}, shape=box, style="filled${earlier ? ',dotted' : ''}", fillcolor="#f6f8fb", fontsize=10];`);
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
