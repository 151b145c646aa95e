import type { DebateTranscript } from '../../schemas/debate.js';

/**
 * The turns and judge calls of a debate that gave nothing usable: a call that failed (an HTTP error,
 * a timeout) or a reply that could not be read. A debate with any is not the debate that was asked
 * for: the command line exits with its own code and names them, and the report marks them.
 */
export interface DebateFailure {
  /** "Agent 2 (openai:gpt-4.1)", "CRIT judge". */
  who: string;
  rounds: number[];
  kind: 'call failed' | 'reply unreadable' | 'judge call failed';
  /** The first error, as recorded. */
  error?: string;
}

export function debateFailures(transcript: Pick<DebateTranscript, 'agents' | 'rounds'>): DebateFailure[] {
  const byKey = new Map<string, DebateFailure>();
  const add = (key: string, failure: Omit<DebateFailure, 'rounds'>, round: number) => {
    const known = byKey.get(key);
    if (known) known.rounds.push(round);
    else byKey.set(key, { ...failure, rounds: [round] });
  };
  for (const round of transcript.rounds) {
    for (const turn of round.turns) {
      if (turn.status === 'ok') continue;
      const agent = transcript.agents.find((candidate) => candidate.id === turn.agentId);
      const who = agent && agent.label !== agent.model ? `${agent.label} (${agent.model})` : turn.label;
      const kind = turn.status === 'call-failure' ? 'call failed' : 'reply unreadable';
      add(`${turn.agentId}/${kind}`, { who, kind, ...(turn.error !== undefined && { error: turn.error }) }, round.round);
    }
    for (const [judge, result] of [['CRIT judge', round.crit], ['RCA judge', round.rca]] as const) {
      if (result?.status === 'failure') add(judge, { who: judge, kind: 'judge call failed', ...(result.error !== undefined && { error: result.error }) }, round.round);
    }
  }
  return [...byKey.values()];
}

/** One line per failure: "Agent 2 (spec): call failed in rounds 1, 2: <first error>". */
export function failureLine(failure: DebateFailure): string {
  const rounds = `${failure.rounds.length === 1 ? 'round' : 'rounds'} ${failure.rounds.join(', ')}`;
  return `${failure.who}: ${failure.kind} in ${rounds}${failure.error ? `: ${failure.error}` : ''}`;
}
