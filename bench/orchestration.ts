// What a deliberation costs the orchestrator (issue 11 "Measure"): tool calls, and the bytes of the
// results it reads, over a fixed scripted scenario. The built server over stdio, the real codex
// binary, the scripted Responses server (test/mcp-server/consult/rig.ts); only the orchestrator is scripted.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { staleReportItems } from '../protocols/argumentation/index.js';
import type { Figure } from './stats.js';
import { DeliberationState } from '../schemas/argumentation.js';
import { lastUserText, startConsultRig, type ConsultRig } from '../test/mcp-server/consult/rig.js';
import type { ResponsesScriptStep } from '../test/doubles/scripted-responses.js';

const QUESTION = 'For a 5-person team: Postgres SKIP LOCKED or Redis Streams for the job queue?';
const CONSTRAINTS = ['Team of five, one on-call rotation', 'Postgres 15 already runs in production'];

const FIRST = [
  'Short answer: Postgres with SKIP LOCKED; Redis Streams only buys something this team does not need yet.',
  '',
  '1. INFERENCE: Use Postgres with SELECT ... FOR UPDATE SKIP LOCKED; the team already runs Postgres, so there is no new system to operate or page on.',
  '2. INFERENCE: Enqueue in the same transaction as the business write, so the job and the data commit or roll back together: no dual-write gap.',
  '3. GUESS: Redis Streams will be needed anyway once throughput passes 1k jobs/s.',
  '4. EVIDENCE: The app already wraps its writes in transactions (src/db/tx.ts:18 "await db.transaction(async (tx) => {").',
  '5. INFERENCE: Redis Streams consumer groups give at-least-once delivery with XACK and XCLAIM; on Postgres you hand-roll visibility timeouts.',
  "6. INFERENCE: A partial index on (run_at) WHERE status = 'queued' keeps the dequeue query fast as the table grows.",
  '7. INFERENCE: Vacuum pressure from high-churn job rows is manageable with a dedicated table and per-table autovacuum settings.',
  '8. GUESS: Drop the Postgres read replica; the queue does not need it.',
  '9. EVIDENCE: Postgres 15 is in production (infra/db.tf:7 "engine_version = \\"15.4\\"").',
  '10. INFERENCE: Use LISTEN/NOTIFY to wake workers instead of polling every second.',
].join('\n');
const PROSE = 'I think we broadly agree by now: Postgres is the pragmatic choice here and I would not over-engineer it.';
const RETRY = [
  '1. Re C2: INFERENCE: a locked_until column still needs a reaper for crashed workers and care with clock skew; consumer groups track pending entries for free.',
  '2. I concede C3: the replica is the failover path; it stays.',
].join('\n');
const QUIET = 'No further points.';
// Issue 20: a challenge answered with numbered items, a later point refining one of them, another replacing an agreed point.
const ITEMS = [
  'Re C1: I concede C1 in part: no load figure shows 1k jobs/s. What I still claim:',
  '',
  '1. INFERENCE: Queue depth is the early signal: alert when jobs wait longer than 30 s, long before throughput matters.',
  '2. INFERENCE: Revisit Redis Streams only if the queued-job p95 wait stays above 30 s for a week.',
].join('\n');
const EXTEND_INDEX = [
  '1. EVIDENCE: extends P1.6: EXPLAIN shows the dequeue using the partial index (bench/explain.txt:3 "Index Scan using jobs_queued_run_at").',
  '2. INFERENCE: Refines P3.2: revisit Redis Streams only if the p95 wait stays above 30 s for a week AND vacuum keeps up (dead tuples under 20%).',
].join('\n');
const EXTEND_NOTIFY = [
  '1. INFERENCE: extends P1.10: a NOTIFY sent while no listener is connected is lost, so workers must still poll once on reconnect.',
  '2. INFERENCE: Replaces P1.7: give the jobs table its own autovacuum settings (autovacuum_vacuum_scale_factor = 0.01), not just a dedicated table.',
].join('\n');
const ARBITER = [
  'P1.1: OK',
  'P1.5: FLAG the reaper cost was asserted, not measured',
  'P1.8: OK',
  'Every other item: OK',
  '',
  'Remarks:',
  'The Redis side was never argued by anyone who wanted it to win.',
].join('\n');

function standardConsultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.startsWith('You review the outcome of a deliberation')) return { text: ARBITER };
  if (prompt.includes('(RETRY #1)')) return { text: RETRY };
  const n = Number(/Iteration (\d)\/8/.exec(prompt)?.[1]);
  const replies: Record<number, string> = { 1: FIRST, 2: PROSE, 3: ITEMS, 4: EXTEND_INDEX, 5: EXTEND_NOTIFY, 6: QUIET };
  return replies[n] ? { text: replies[n] } : { status: 500, errorBody: `unexpected prompt: ${prompt.slice(0, 200)}` };
}

const QUICK_FIRST = [
  '1. INFERENCE: Postgres SKIP LOCKED: one system fewer to run for a team of five.',
  '2. INFERENCE: Enqueue in the business transaction; Redis cannot join it.',
  '3. GUESS: Redis Streams has lower dequeue latency.',
].join('\n');
const QUICK_SECOND = 'Re P1.3: I concede it; at this load a few milliseconds of dequeue latency do not matter.';

function quickConsultee({ body }: { body: unknown }): ResponsesScriptStep {
  const prompt = lastUserText(body);
  if (prompt.includes('Iteration 1/2')) return { text: QUICK_FIRST };
  if (prompt.includes('Iteration 2/2')) return { text: QUICK_SECOND };
  return { status: 500, errorBody: `unexpected prompt: ${prompt.slice(0, 200)}` };
}

/** One tool call as the orchestrator sees it: the tool, and the bytes of what it read back. */
export interface CallCost {
  tool: string;
  bytes: number;
  /** The closing result: it carries the brief for the answer. */
  closing?: boolean;
}

/** Calls tools through the rig, keeping each call's cost; a refusal here means the scenario broke. */
function meter(rig: ConsultRig) {
  const costs: CallCost[] = [];
  return {
    costs,
    async call(tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
      const result: CallToolResult = await rig.call(tool, args);
      const seen = result.isError ? (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n') : JSON.stringify(result.structuredContent);
      costs.push({ tool, bytes: Buffer.byteLength(seen), ...(result.structuredContent?.brief ? { closing: true } : {}) });
      if (result.isError) throw new Error(`the scenario broke: ${tool} was refused: ${seen}`);
      return result.structuredContent as Record<string, any>;
    },
  };
}

const value = (id: string, reason: string) => ({ id, verdict: 'AGREE', claimType: 'value', reason });
const consult = { waitSeconds: 60 };

async function standardRun(): Promise<{ costs: CallCost[]; codexTurns: number; staleReportItems: number; consulteeBytes: number }> {
  // What the consultee wrote (its replies, not the arbiter's): the floor of what the orchestrator must read.
  let consulteeBytes = 0;
  const rig = await startConsultRig((request) => {
    const step = standardConsultee(request);
    if (step.text !== undefined && !lastUserText(request.body).startsWith('You review the outcome of a deliberation')) consulteeBytes += Buffer.byteLength(step.text);
    return step;
  });
  try {
    const m = meter(rig);
    const start = await m.call('delib_start', { question: QUESTION, mode: 'standard', constraints: CONSTRAINTS, consult });
    const id: string = start.deliberationId;
    await m.call('delib_judge', {
      deliberationId: id,
      ledger: [{ action: 'add', tag: 'verified', text: 'The app wraps its writes in transactions', reference: 'src/db/tx.ts:18 "await db.transaction(async (tx) => {"' }],
      points: [
        value('P1.1', 'one system fewer to run matters most for a team of five'),
        { id: 'P1.2', verdict: 'AGREE', claimType: 'logical', premises: ['F2', 'F3'], reason: 'the job row commits in the transaction the app already opens' },
        { id: 'P1.3', verdict: 'SKEPTICAL', flaw: 'No load figure shows the team will pass 1k jobs/s.' },
        { id: 'P1.4', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'src/db/tx.ts:18 "await db.transaction(async (tx) => {"', reason: 'the quoted line opens the transaction' },
        { id: 'P1.5', verdict: 'SKEPTICAL', flaw: 'A locked_until column is a known pattern, so the gap is smaller than stated.' },
        value('P1.6', 'a partial index is the standard fix for queue scans'),
        value('P1.7', 'a dedicated table bounds the vacuum cost to the queue'),
        { id: 'P1.8', verdict: 'REJECT', flaw: 'The replica is the failover path, unrelated to the queue.', claimType: 'empirical', evidence: 'infra/db.tf:31 "replica_count = 1" (failover runbook)', terminalWhy: 'failover is not negotiable' },
        { id: 'P1.9', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'infra/db.tf:7 "engine_version = \\"15.4\\""', reason: 'the quoted line pins Postgres 15' },
        value('P1.10', 'waking workers on commit beats a one-second poll'),
      ],
      phase: { advance: true },
      consult,
    });
    await m.call('delib_judge', { deliberationId: id, challenges: [{ id: 'C2', verdict: 'accepted', claimType: 'value', reason: 'the reaper and clock handling are real work for five people' }], phase: { advance: true }, consult });
    await m.call('delib_judge', {
      deliberationId: id,
      points: [value('P3.1', 'a wait-time alert catches load before it hurts'), value('P3.2', 'a measured trigger beats a guessed throughput')],
      challenges: [{ id: 'C1', verdict: 'accepted', claimType: 'value', reason: 'the narrowed claim rests on a signal the team can watch' }],
      phase: { advance: true },
      consult,
    });
    await m.call('delib_judge', {
      deliberationId: id,
      points: [
        { id: 'P4.1', verdict: 'AGREE', claimType: 'empirical', evidenceType: 'textual', evidence: 'bench/explain.txt:3 "Index Scan using jobs_queued_run_at"', reason: 'the plan shows the partial index in use' },
        { ...value('P4.2', 'vacuum health belongs in the trigger for leaving Postgres'), supersedes: 'P3.2' },
      ],
      phase: { advance: true },
      consult,
    });
    await m.call('delib_judge', {
      deliberationId: id,
      points: [value('P5.1', 'a poll on reconnect is cheap insurance for lost notifications'), value('P5.2', 'per-table autovacuum is what bounds the churn')],
      phase: { advance: true },
      consult,
      // Held (SKILL.md "Closing"): Codex's next reply has nothing further, so it ends the deliberation with no call of its own.
      synthesis: { recommendation: 'Postgres with SKIP LOCKED, enqueued in the business transaction', confidence: 'high', caveats: ['Revisit Redis Streams if load nears 1k jobs/s'] },
    });
    await m.call('delib_arbitrate', { deliberationId: id, waitSeconds: 60 });
    await checkStandard(rig, id);
    return { costs: m.costs, codexTurns: rig.server.requests.length, staleReportItems: await staleItems(rig, id), consulteeBytes };
  } finally {
    await rig.close();
  }
}

/** Which points were replaced by which, as the state records it. */
const versions = (state: { points: { id: string; supersededBy?: string }[] }) =>
  state.points.filter((p) => p.supersededBy).map((p) => `${p.id}->${p.supersededBy}`).sort().join(', ');

/** Claims the report file states though replaced, or leaves out (protocols/argumentation/report/stale-check.ts). */
async function staleItems(rig: ConsultRig, id: string): Promise<number> {
  const state = DeliberationState.parse((await rig.stateFile(id)).value);
  return staleReportItems(state, await readFile(join(rig.stateDir, 'deliberations', `${id}.report.md`), 'utf8')).count;
}

/** The figures only count if the scenario ran as scripted. */
async function checkStandard(rig: ConsultRig, id: string): Promise<void> {
  const { value: state } = await rig.stateFile(id);
  const challenges = state.challenges.map((c: { id: string; status: string }) => `${c.id} ${c.status}`).join(', ');
  const ok =
    state.n === 6 &&
    state.status === 'terminated' &&
    state.points.filter((p: { iter: number }) => p.iter === 1).length === 10 &&
    challenges === 'C1 resolved, C2 resolved, C3 conceded' &&
    versions(state) === 'P1.7->P5.2, P3.2->P4.2' &&
    state.counters.totalFormatFailures === 1 &&
    !!state.report &&
    !!state.arbitration;
  if (!ok) throw new Error(`the standard scenario did not run as scripted: n=${state.n} ${state.status}, challenges ${challenges}, format failures ${state.counters.totalFormatFailures}`);
}

async function quickRun(): Promise<{ costs: CallCost[]; codexTurns: number }> {
  const rig = await startConsultRig(quickConsultee);
  try {
    const m = meter(rig);
    const start = await m.call('delib_start', { question: 'Postgres SKIP LOCKED or Redis Streams for a five-person team job queue?', mode: 'quick', consult });
    const id: string = start.deliberationId;
    await m.call('delib_judge', {
      deliberationId: id,
      points: [value('P1.1', 'one system fewer matters most for five people'), value('P1.2', 'atomic enqueue removes a class of lost jobs'), { id: 'P1.3', verdict: 'SKEPTICAL', flaw: 'Dequeue latency does not matter at this load.' }],
      phase: { advance: true },
      consult,
    });
    const end = await m.call('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: { recommendation: 'Postgres SKIP LOCKED', confidence: 'high' } });
    if (!end.brief) throw new Error(`the quick scenario did not end with the brief: ${JSON.stringify(end)}`);
    return { costs: m.costs, codexTurns: rig.server.requests.length };
  } finally {
    await rig.close();
  }
}

/** Both runs with each call's cost (for a closer look: which results are heavy). */
export async function runOrchestration() {
  return { standard: await standardRun(), quick: await quickRun() };
}

export async function benchOrchestration(): Promise<Record<string, number | Figure>> {
  const { standard, quick } = await runOrchestration();
  return {
    'orchestration.standard.toolCalls': standard.costs.length,
    'orchestration.standard.resultBytes': { value: standard.costs.reduce((sum, c) => sum + c.bytes, 0), note: 'the closing brief (<= 5000) + the rest (target <= 1.15 x consultee reply bytes + 3100)' },
    'orchestration.standard.beforeClosingBytes': { value: standard.costs.filter((c) => !c.closing).reduce((sum, c) => sum + c.bytes, 0), note: 'target <= 1.15 x consultee reply bytes + 3100' },
    'orchestration.standard.consulteeBytes': { value: standard.consulteeBytes, note: "the consultee's reply bytes in the same run" },
    'orchestration.standard.closingResultBytes': { value: standard.costs.find((c) => c.closing)?.bytes ?? NaN, note: 'target <= 5000' },
    'orchestration.standard.staleReportItems': { value: standard.staleReportItems, note: 'target 0: replaced or missing claims in the report' },
    'orchestration.quick.toolCalls': quick.costs.length,
    'orchestration.quick.codexTurns': quick.codexTurns,
  };
}
