import type { DebateConfig, DebateTranscript, RoleVisibility } from '../../schemas/debate.js';

export interface DebateAgent {
  id: string;
  /** 1-based position in the config; claim ids use it, whatever the label. */
  number: number;
  /** What other agents and judges see: `Agent n` when anonymised, else the model name. */
  label: string;
  model: string;
  role?: string;
  persona?: string;
}

/** The model name inside a spec: `openai:gpt-4.1` -> `gpt-4.1`, `openai-compatible:<url>#m` -> `m`. */
export function modelNameOf(spec: string): string {
  const hash = spec.lastIndexOf('#');
  if (hash >= 0) return spec.slice(hash + 1);
  const colon = spec.indexOf(':');
  return colon >= 0 ? spec.slice(colon + 1) : spec;
}

/** The endpoint a concurrency limit applies to: the spec without its model. */
export function endpointOf(spec: string): string {
  const hash = spec.lastIndexOf('#');
  if (hash >= 0) return spec.slice(0, hash);
  const colon = spec.indexOf(':');
  return colon >= 0 ? spec.slice(0, colon) : spec;
}

export function resolveAgents(config: Pick<DebateConfig, 'agents' | 'anonymise'>): DebateAgent[] {
  const names = config.agents.map((agent) => modelNameOf(agent.model));
  return config.agents.map((agent, index) => {
    const name = names[index]!;
    const clash = names.filter((other) => other === name).length > 1;
    const label = config.anonymise ? `Agent ${index + 1}` : clash ? `${name} (${index + 1})` : name;
    return {
      id: agent.id ?? `agent-${index + 1}`,
      number: index + 1,
      label,
      model: agent.model,
      ...(agent.role ? { role: agent.role } : {}),
      ...(agent.persona ? { persona: agent.persona } : {}),
    };
  });
}

/** Round r (1-based) speaks in the config order rotated left by r-1. */
export function speakingOrder(agentIds: string[], round: number): string[] {
  const shift = (round - 1) % agentIds.length;
  return [...agentIds.slice(shift), ...agentIds.slice(0, shift)];
}

export const claimIdOf = (round: number, agentNumber: number, localId: string): string =>
  `R${round}-A${agentNumber}-${localId.replace(/[^A-Za-z0-9_]/g, '_')}`;

const ROLE_AUDIENCE: Record<RoleVisibility, string> = {
  all: 'the other agents and the judges',
  judges: 'the judges, not the other agents',
  none: 'only the agent itself',
};

/**
 * The experimental conditions a report names: identities, and who saw the roles (when any agent
 * had a role or persona). Transcripts from before roleVisibility showed roles to the agent alone.
 */
export function debateConditions(transcript: Pick<DebateTranscript, 'anonymise' | 'roleVisibility' | 'agents'>): [string, string][] {
  const briefed = transcript.agents.some((agent) => agent.role || agent.persona);
  return [
    ['identities', transcript.anonymise ? 'anonymised (Agent n)' : 'visible (model names)'],
    ...(briefed ? [['roles seen by', ROLE_AUDIENCE[transcript.roleVisibility ?? 'none']] as [string, string]] : []),
  ];
}
