/**
 * The scripted orchestrator's judgment, as SKILL.md teaches it: given what the last parley tool
 * returned, the next tool call (or the final answer). It reads only what the model would see (the
 * tool_result JSON), so ids like deliberationId, point ids and challenge ids come from there,
 * never from the test. One delib_judge per iteration covers every new point, every answer and
 * every reading item; the judgment that can end the deliberation carries the synthesis.
 */
export interface Plan {
  question: string;
  mode: 'standard' | 'minimal' | 'quick';
  framing: string;
  constraints: string[];
  material?: string;
  /** delib_judge point items (verdict and its fields) by point id; points not listed are agreed as value judgments. */
  points: Record<string, Record<string, unknown>>;
  /** Verdicts on a challenge the consultee answered, by the challenged point's id. */
  challenges: Record<string, Record<string, unknown>>;
  /** Quick mode: where a point goes once the consultee answered the objection (a bucket item), by point id. */
  placements: Record<string, Record<string, unknown>>;
  /** How to read the parts of a reply parley could not apply with certainty, by their kind; unlisted kinds are left as read. */
  readings: Partial<Record<'section' | 'question' | 'answer' | 'mention', 'point' | 'question' | 'defense' | 'concession'>>;
  synthesis: { recommendation: string; confidence: 'high' | 'medium' | 'low'; caveats?: string[] };
  /** Standard mode: ask for arbitration after the synthesis. */
  arbitrate: boolean;
}

export type Decision = { tool: string; input: Record<string, unknown> } | { text: string };

interface ReplyView {
  iteration: number;
  nothingFurther?: boolean;
  points: { id: string; notEvaluated?: string }[];
  answers?: { challenge?: string; point: string; partialConcession?: boolean; narrowedClaim?: string }[];
  reading?: { ref: string; kind: 'section' | 'question' | 'answer' | 'mention' }[];
}

export interface ToolResult {
  deliberationId?: string;
  /** "n=3 DEVELOPMENT active" */
  at?: string;
  effects?: string[];
  refused?: unknown[];
  next?: string[];
  consult?: { status: string; reply?: ReplyView };
  /** flagged: "1 of 2"; items: the flagged ones with the reviewer's reason. */
  arbitration?: { status: string; flagged?: { ref: string; why?: string }[]; reviewed?: number; remarks?: string };
  /** The closing result's brief: what the answer to the user is written from. */
  brief?: { decision?: string; turnsOn?: string[]; changed?: string[]; askUser?: string[]; caveats?: string[] };
}

/** Consults in these tests get a scripted Codex: give each one time enough to answer in the same call. */
const CONSULT = { waitSeconds: 120 };
const AGREE_VALUE = { verdict: 'AGREE', claimType: 'value', reason: 'a judgment the user constraints support' };
const OBJECTIONS = new Set(['SKEPTICAL', 'REJECT']);

/** The previous parley call and its parsed tool_result (undefined before the first call), and the results read before it. */
export function decide(plan: Plan, last: { tool: string; result: ToolResult } | undefined, earlier: ToolResult[] = []): Decision {
  if (!last) {
    const material = plan.material ? { material: plan.material } : {};
    return { tool: 'delib_start', input: { question: plan.question, mode: plan.mode, framing: plan.framing, constraints: plan.constraints, ...material, consult: { cwd: 'empty', ...CONSULT } } };
  }
  const result = last.result;
  // delib_start's result names the deliberation; later results do not repeat it, as a model remembers it.
  const id = [...earlier, result].find((r) => r.deliberationId)?.deliberationId;
  if (!id) return { text: `ERROR: no deliberationId in ${JSON.stringify([...earlier, result])}` };
  if (result.refused?.length) return { text: `ERROR: ${last.tool} refused ${JSON.stringify(result.refused)}` };
  if (result.consult?.status === 'running') return { tool: 'delib_consult', input: { deliberationId: id, ...CONSULT } };
  if (result.arbitration?.status === 'running') return { tool: 'delib_arbitrate', input: { deliberationId: id, ...CONSULT } };
  if (last.tool === 'delib_arbitrate') return { text: finalAnswer(id, result, earlier) };
  if (result.at?.endsWith('terminated')) {
    if (!result.brief) return { tool: 'delib_synthesize', input: { deliberationId: id, ...plan.synthesis } };
    if (plan.mode === 'standard' && plan.arbitrate) return { tool: 'delib_arbitrate', input: { deliberationId: id, ...CONSULT } };
    return { text: finalAnswer(id, result) };
  }
  const reply = result.consult?.reply;
  if (!reply) return { text: `ERROR: nothing to judge in ${JSON.stringify(result)}` };
  const judged = judge(plan, reply, result.next ?? []);
  return 'text' in judged ? judged : { tool: 'delib_judge', input: { deliberationId: id, ...judged.judgment, phase: { advance: true }, consult: CONSULT } };
}

/** One judgment covering every point, answer and reading item of the reply. */
function judge(plan: Plan, reply: ReplyView, next: string[]): { judgment: Record<string, unknown> } | { text: string } {
  const reading = (reply.reading ?? []).flatMap((item) => (plan.readings[item.kind] ? [{ ref: item.ref, as: plan.readings[item.kind] }] : []));
  const points: Record<string, unknown>[] = reply.points.filter((p) => !p.notEvaluated).map((p) => ({ id: p.id, ...(plan.points[p.id] ?? AGREE_VALUE) }));
  const challenges: Record<string, unknown>[] = [];
  for (const answer of reply.answers ?? []) {
    const planned = answer.challenge ? plan.challenges[answer.point] : plan.placements[answer.point];
    if (!planned) return { text: `ERROR: no judgment planned for the answer on ${answer.point}` };
    if (answer.challenge) challenges.push({ id: answer.challenge, ...planned });
    else points.push({ id: answer.point, ...planned });
  }
  // SKILL.md: the synthesis goes with a judgment that can end the deliberation.
  const objects = points.some((p) => OBJECTIONS.has(String(p.verdict)));
  const quiet = !reply.points.length && !reply.answers?.length;
  const canEnd = !objects && (plan.mode === 'quick' || next.some((line) => /ends the deliberation/.test(line)) || quiet);
  return {
    judgment: {
      ...(reading.length ? { reading } : {}),
      ...(points.length ? { points } : {}),
      ...(challenges.length ? { challenges } : {}),
      ...(canEnd ? { synthesis: plan.synthesis } : {}),
    },
  };
}

/** What the orchestrator answers: the synthesis and arbitration effects, the flags, and an answer written from the latest brief it read. */
function finalAnswer(id: string, result: ToolResult, earlier: ToolResult[] = []): string {
  const read = [...earlier, result];
  const review = result.arbitration;
  const flagged = review?.flagged ?? [];
  const flags = flagged.map((f) => `${f.ref} (${f.why ?? 'no reason given'})`).join(', ');
  const arbitration = review ? [`Arbitration flagged ${flagged.length} of ${review.reviewed ?? '?'}: ${flags || 'none'}. ${review.remarks ?? ''}`.trim()] : [];
  const effects = read.flatMap((r) => r.effects ?? []).filter((e) => e.startsWith('report ready') || e.startsWith('arbitration'));
  const brief = [...read].reverse().find((r) => r.brief)?.brief;
  const answer = brief ? [brief.decision ?? '', ...(brief.turnsOn ?? []), ...(brief.changed ?? []), ...(brief.askUser ?? []).map((q) => `Your call: ${q}`), ...(brief.caveats ?? [])] : [];
  return [`Deliberation ${id} is synthesized.`, ...effects, ...arbitration, answer.filter(Boolean).join('\n')].join('\n\n').trim();
}
