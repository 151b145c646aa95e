import type { DebateTranscript, Stance } from '../../schemas/debate.js';
import { validRecords } from './round-measures.js';

export interface GraphNode {
  id: string;
  kind: 'agent' | 'claim';
  label: string;
  /** For a claim: its author and round. */
  agentId?: string;
  round?: number;
  text?: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** `agent`: agent -> agent; `claim`: agent -> claim it engaged; `authored`: agent -> own claim. */
  kind: 'agent' | 'claim' | 'authored';
  round: number;
  stance?: Stance;
  /** How many references this edge stands for. */
  count: number;
}

export interface DebateGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The directed debate graph rebuilt from the transcript; references to unknown agents and self references are left out. */
export function buildGraph(transcript: DebateTranscript): DebateGraph {
  const nodes: GraphNode[] = transcript.agents.map((agent) => ({ id: agent.id, kind: 'agent', label: agent.label }));
  const edges = new Map<string, GraphEdge>();
  const add = (edge: Omit<GraphEdge, 'count'>) => {
    const key = `${edge.kind}|${edge.round}|${edge.from}|${edge.to}|${edge.stance ?? ''}`;
    const existing = edges.get(key);
    if (existing) existing.count += 1;
    else edges.set(key, { ...edge, count: 1 });
  };
  for (const round of transcript.rounds) {
    for (const { agentId, record } of validRecords(round)) {
      for (const claim of record.claims) {
        nodes.push({ id: claim.id, kind: 'claim', label: claim.id, agentId, round: round.round, text: claim.text });
        add({ from: agentId, to: claim.id, kind: 'authored', round: round.round });
      }
    }
  }
  for (const round of transcript.rounds) {
    for (const { agentId, record } of validRecords(round)) {
      for (const ref of record.references) {
        if (!ref.resolved || ref.targetAgent === agentId) continue;
        add({ from: agentId, to: ref.targetAgent, kind: 'agent', round: round.round, stance: ref.stance });
        if (ref.targetClaim) add({ from: agentId, to: ref.targetClaim, kind: 'claim', round: round.round, stance: ref.stance });
      }
    }
  }
  return { nodes, edges: [...edges.values()] };
}

const dotId = (id: string): string => JSON.stringify(id);
const mermaidId = (id: string): string => id.replace(/[^A-Za-z0-9_]/g, '_');
const mermaidText = (text: string): string => text.replace(/"/g, '#quot;');
const STANCE_COLOR: Record<Stance, string> = { rebut: 'red', qualify: 'purple', support: 'darkgreen', concede: 'orange', extend: 'blue' };

export function graphToDot(graph: DebateGraph): string {
  const lines = ['digraph debate {', '  rankdir=LR;'];
  for (const node of graph.nodes) {
    const shape = node.kind === 'agent' ? 'box' : 'ellipse';
    lines.push(`  ${dotId(node.id)} [label=${dotId(node.label)}, shape=${shape}];`);
  }
  for (const edge of graph.edges) {
    const attrs =
      edge.kind === 'authored'
        ? 'style=dashed, color=gray'
        : `label=${dotId(`r${edge.round} ${edge.stance}${edge.count > 1 ? ` x${edge.count}` : ''}`)}, color=${STANCE_COLOR[edge.stance!]}`;
    lines.push(`  ${dotId(edge.from)} -> ${dotId(edge.to)} [${attrs}];`);
  }
  lines.push('}');
  return lines.join('\n') + '\n';
}

export function graphToMermaid(graph: DebateGraph): string {
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) {
    lines.push(node.kind === 'agent' ? `  ${mermaidId(node.id)}["${mermaidText(node.label)}"]` : `  ${mermaidId(node.id)}(["${mermaidText(node.label)}"])`);
  }
  for (const edge of graph.edges) {
    if (edge.kind === 'authored') lines.push(`  ${mermaidId(edge.from)} -.- ${mermaidId(edge.to)}`);
    else lines.push(`  ${mermaidId(edge.from)} -->|"r${edge.round} ${edge.stance}${edge.count > 1 ? ` x${edge.count}` : ''}"| ${mermaidId(edge.to)}`);
  }
  return lines.join('\n') + '\n';
}
