/** Runs of all three protocols for the report tests, made by the real engines (no hand-written state). */
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { DeliberationState } from '../../../schemas/argumentation.js';
import { loadReportSource } from '../../../protocols/report/index.js';
import { createDeps, type DepsOptions } from '../../../mcp-server/deps.js';
import { runDebateToFile } from '../../../protocols/debate/index.js';
import { runDialogicToFile } from '../../../protocols/dialogic/index.js';
import { startScriptedChat, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { FOUR_AGENT_DEBATE, agentsOn, debaterScript } from '../debate/scripts.js';
import { startWorld } from '../dialogic/world.js';

/** Model output that would run or restyle the page if any report failed to escape it. */
export const HOSTILE = `<script>window.__pwned = 1</script></style><style>body{display:none}</style><img src=x onerror="window.__pwned=2"> | **bold** [link](http://example.com)`;

/** Text that would add a heading, a list item, a code span or a setext underline to a Markdown report left unescaped. */
export const HOSTILE_MD = "`rm -rf /` INFERENCE\n===\n- fake item";

export const QUESTION = 'Should the cache use Redis or Memcached?';

/** Past every excerpt length a report ever used (240, 300, 600): the report must keep it whole. */
export const LONG_POINT = `Memcached is simpler to operate: ${'it has no persistence, replication or scripting to configure, tune, monitor or upgrade, '.repeat(8)}END-OF-P1.2.`;

export const RECOMMENDATION = `Use Memcached for the cache.\n\n===\n## Injected heading\n- fake step\n${HOSTILE}`;

/**
 * A standard-mode deliberation through the real store and the engine's moves (reply_record, judge,
 * synthesize, arbitration_record): a partial concession, a conceded REJECT, a logical claim, a
 * deadlock with a crux and a surfaced question, late new arguments, a recommendation and an arbiter's
 * reasons and remarks. Consultee, orchestrator and arbiter text carries HOSTILE markup.
 */
export async function argumentationRun(dir: string, options: DepsOptions = {}): Promise<{ statePath: string; id: string; deps: ReturnType<typeof createDeps> }> {
  const deps = createDeps({ home: dir, env: {}, clock: () => new Date('2026-05-01T10:00:00Z'), ...options });
  const d = deps.deliberations;
  const id = 'report-delib';
  const reply = (text: string) => d.apply(id, 'reply_record', { text, sessionId: 'sess-1' });
  const judge = async (input: unknown) => {
    const outcome = await d.apply(id, 'judge', input);
    if (outcome.refused?.length) throw new Error(`fixture judgment refused: ${JSON.stringify(outcome.refused)}`);
  };
  await d.start({ question: `${QUESTION} ${HOSTILE}`, mode: 'standard', constraints: ['The service runs on one host.'] }, id);
  await reply(
    [
      '1. Redis supports persistence, so a restart keeps the cache warm. EVIDENCE: docs say RDB snapshots.',
      `2. ${LONG_POINT} INFERENCE`,
      `3. ${HOSTILE} ${HOSTILE_MD}`,
      '4. A single-host cache dies with its host whichever you pick. INFERENCE',
      '5. Redis is faster than Memcached for this workload. GUESS',
    ].join('\n'),
  );
  await judge({
    ledger: [{ action: 'add', text: 'Memcached keeps no data on disk.', tag: 'verified', reference: 'memcached.org/about: "in-memory key-value store"' }],
    points: [
      { id: 'P1.1', verdict: 'SKEPTICAL', flaw: 'Persistence is irrelevant for a pure cache.' },
      { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' },
      { id: 'P1.3', verdict: 'REJECT', flaw: `Not an argument: ${HOSTILE}`, terminalWhy: 'it is markup, not a claim', claimType: 'empirical', evidence: 'the point text itself' },
      { id: 'P1.4', verdict: 'AGREE', claimType: 'logical', evidenceType: 'deduction', premises: ['F1'], reason: 'one host is one failure domain, so neither choice adds availability' },
      { id: 'P1.5', verdict: 'SKEPTICAL', flaw: 'No benchmark backs the speed claim.' },
    ],
    phase: { advance: true },
  });
  await reply('Re C1: Partly conceded. Narrowed claim: persistence matters only for warm restarts after deploys.\nEVIDENCE: runbook.md:4 "restart weekly"\n\nRe C2: I concede C2.\n\nRe C3: The speed gap is real under pipelining. INFERENCE');
  await judge({
    challenges: [
      { id: 'C1', verdict: 'accepted', reason: 'the runbook shows weekly restarts', claimType: 'empirical', evidenceType: 'textual', evidence: 'runbook.md:4 "restart weekly"' },
      { id: 'C3', verdict: 'rebutted', reason: 'pipelining helps both servers equally' },
    ],
    phase: { advance: true },
  });
  await reply('Re C3: Redis pipelines more commands per round trip. INFERENCE');
  await judge({ challenges: [{ id: 'C3', verdict: 'rebutted', reason: 'Memcached has multi-get, the same round-trip saving' }], phase: { advance: true } });
  await reply('Re C3: Only a benchmark can settle it. INFERENCE\n\n1. Consider Hazelcast instead. INFERENCE\n2. KeyDB is a drop-in alternative. GUESS');
  await judge({
    challenges: [{ id: 'C3', verdict: 'deadlock', reason: 'no numbers on either side', deadlock: 'missing-data', measurement: 'p99 GET latency under pipelining', threshold: '1 ms', verdictChange: 'below it speed stops mattering', question: 'What p99 latency does the service need?' }],
    phase: { advance: true },
  });
  await reply('No further points.');
  await judge({ phase: { advance: true }, synthesis: { recommendation: RECOMMENDATION, confidence: 'medium', caveats: ['Revisit if warm restarts start to matter.', `A caveat with ${HOSTILE}`] } });
  await d.apply(id, 'arbitration_record', {
    items: ['P1.1', 'P1.2', 'P1.3', 'P1.4', 'P1.5'].map((ref) => (ref === 'P1.2' ? { ref, flagged: true, note: `A value claim resting on taste. ${HOSTILE}` } : { ref, flagged: false })),
    remarks: `The Memcached side was never argued by anyone who wanted it to win.\n\n=== ${HOSTILE}`,
    reviewer: 'arbiter-model',
  });
  return { statePath: d.store.pathFor(id), id, deps };
}

/** A hostile term name the scripted responder keeps (names starting with K are kept). */
export const HOSTILE_TERM = 'K <script>window.__pwned=3</script></style>';

/** Two cycles to bilateral exhaustion against the scripted chat server; run file + baseline in `<dir>/dialogic.run/`. */
export async function dialogicRun(dir: string): Promise<string> {
  const world = await startWorld({
    generations: {
      'model-a': [{ terms: ['K alpha', 'RA alpha', 'RC alpha', 'D alpha'] }, { terms: ['K delta', 'D delta'] }, { exhausted: true, statement: 'Nothing further.' }],
      'model-b': [{ terms: [HOSTILE_TERM, 'RX beta', 'RD beta', 'K gamma'] }, { terms: ['K epsilon', 'RA epsilon'] }, { exhausted: true, statement: 'Nothing further.' }],
    },
  });
  try {
    const outPath = join(dir, 'dialogic.json');
    await runDialogicToFile({ modelA: world.specA, modelB: world.specB, retryBaseMs: 0 }, { outPath, now: () => new Date('2026-05-01T10:00:00Z') });
    return outPath;
  } finally {
    await world.chat.close();
  }
}

const AGENTS = ['Agent 1', 'Agent 2', 'Agent 3', 'Agent 4'];

/** The judges' replies: CRIT scores every agent, RCA calls Agent 2 sycophantic. */
function judgeReply(req: ChatRequestRecord): string {
  const prompt = req.messages.at(-1)?.content ?? '';
  if (prompt.includes('You audit the reasoning')) {
    return JSON.stringify({
      agents: AGENTS.map((agent, i) => ({
        agent,
        reasons: [{ text: 'cites the tests', validity: 6 + i, credibility: 7 }],
        rivals: [{ text: 'the regression', validity: 5, credibility: 6 }],
        pillars: { logicalValidity: 0.8, evidentialSupport: 0.6 + i * 0.05, alternativeConsideration: 0.5, causalAlignment: 0.7 },
        flags: i === 1 ? ['premature_certainty'] : [],
      })),
    });
  }
  return JSON.stringify({
    agents: AGENTS.map((agent) => ({
      agent,
      verdict: agent === 'Agent 2' ? 'INCONSISTENT_SYCOPHANTIC' : 'CONSISTENT',
      explanation: agent === 'Agent 2' ? `It dropped its own objection: ${HOSTILE}` : 'Its answer follows from its reasoning.',
      confidence: 0.8,
    })),
  });
}

/** The scripted four-agent debate with CRIT, RCA and the PID controller on, and a hostile claim. */
export async function debateRun(dir: string): Promise<string> {
  const { server, config } = await debateServer();
  try {
    const outPath = join(dir, 'debate.json');
    await runDebateToFile(config, { outPath });
    return outPath;
  } finally {
    await server.close();
  }
}

/** The scripted debaters and judges, and a config that uses them. */
export async function debateServer() {
  const replies = structuredClone(FOUR_AGENT_DEBATE) as Record<string, Record<string, unknown>[]>;
  replies.m2![0]!.claims = [{ id: 'c1', text: `Performance regressed. ${HOSTILE}` }, { id: 'c2', text: 'Docs are missing.' }];
  const debaters = debaterScript(replies);
  const server = await startScriptedChat((req) => (req.model === 'judge' ? { content: judgeReply(req) } : debaters(req)));
  const judge = `openai-compatible:${server.baseUrl}#judge`;
  const config = { question: `Should we ship the release today? ${HOSTILE}`, agents: agentsOn(server.baseUrl, ['m1', 'm2', 'm3', 'm4']), rounds: 3, groundTruth: 'no', crit: { judge, variant: 'both' as const }, rca: { judge }, pid: {} };
  return { server, config };
}

/** The argumentation run's state as a report reads it back, in a folder of its own that `cleanup` removes. */
export async function argumentationState(prefix: string): Promise<{ state: DeliberationState; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const source = await loadReportSource((await argumentationRun(dir)).statePath);
  if (source.kind !== 'argumentation') throw new Error('expected an argumentation state');
  return { state: source.state, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
