/**
 * The scripted orchestrator's judgment: given what the last parley tool returned, the next tool call
 * (or the final answer). It reads only what the model would see (the tool_result JSON), so ids like
 * deliberationId, point ids and challenge ids come from there, never from the test.
 */
export interface Plan {
  question: string;
  mode: 'standard' | 'minimal' | 'quick';
  framing: string;
  constraints: string[];
  /** point_evaluate arguments by point id; points not listed are agreed as value judgments. */
  evaluate: Record<string, Record<string, unknown>>;
  /** challenge_resolve arguments for a defended challenge, by the challenged point's id. */
  resolve: Record<string, Record<string, unknown>>;
  /** iteration_advance marks a factual question settled. */
  trivial: boolean;
}

export type Decision = { tool: string; input: Record<string, unknown> } | { text: string };

interface StatusView {
  status: string;
  replyRecorded: boolean;
  unevaluatedPoints: { id: string; status: string }[];
  openChallenges: { id: string; point: string; status: string }[];
}

export interface ToolResult {
  deliberationId?: string;
  effects?: string[];
  consult?: { status: string };
  status?: StatusView;
  report?: { markdown?: string };
}

/** The previous parley call and its parsed tool_result (undefined before the first call). */
export function decide(plan: Plan, last: { tool: string; result: ToolResult } | undefined): Decision {
  const result = last?.result;
  if (!result?.deliberationId) {
    return { tool: 'delib_start', input: { question: plan.question, mode: plan.mode, framing: plan.framing, constraints: plan.constraints } };
  }
  const id = result.deliberationId;
  const status = result.status;
  if (last?.tool === 'delib_synthesize') return { text: finalAnswer(id, result) };
  if (!status) return { text: `ERROR: no status in ${JSON.stringify(result)}` };
  if (result.consult?.status === 'running') return { tool: 'delib_consult', input: { deliberationId: id, waitSeconds: 60 } };
  if (status.status !== 'active') return { tool: 'delib_synthesize', input: { deliberationId: id } };
  const triage = status.unevaluatedPoints.find((p) => p.status === 'pending-triage');
  if (triage) return { tool: 'point_triage', input: { deliberationId: id, pointId: triage.id, triage: 'in-scope', reason: 'it bears on the question asked' } };
  const pending = status.unevaluatedPoints.find((p) => p.status === 'pending-evaluation');
  if (pending) {
    const args = plan.evaluate[pending.id] ?? { classification: 'AGREE', claimType: 'value', evidenceType: 'n/a', reason: 'a judgment the user constraints support' };
    return { tool: 'point_evaluate', input: { deliberationId: id, pointId: pending.id, ...args } };
  }
  const defended = status.openChallenges.find((c) => c.status === 'defended');
  if (defended) {
    const args = plan.resolve[defended.point];
    if (!args) return { text: `ERROR: no verdict planned for ${defended.id} on ${defended.point}` };
    return { tool: 'challenge_resolve', input: { deliberationId: id, challengeId: defended.id, ...args } };
  }
  if (!status.replyRecorded) return { tool: 'delib_consult', input: { deliberationId: id, waitSeconds: 60, cwd: 'empty' } };
  return { tool: 'iteration_advance', input: { deliberationId: id, ...(plan.trivial ? { trivial: true } : {}) } };
}

/** What the orchestrator presents: what the tool said, and the report's Markdown when it is returned. */
function finalAnswer(id: string, result: ToolResult): string {
  return [`Deliberation ${id} is synthesized.`, ...(result.effects ?? []), result.report?.markdown ?? ''].join('\n\n').trim();
}
