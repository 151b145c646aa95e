/** Runs of all three protocols for the report tests, made by the real engines (no hand-written state). */
import { join } from 'node:path';
import { createDeps, type DepsOptions } from '../../mcp-server/deps.js';
import { runDebateToFile } from '../../protocols/debate/index.js';
import { runDialogicToFile } from '../../protocols/dialogic/index.js';
import { startScriptedChat, type ChatRequestRecord } from '../servers/scripted-chat.js';
import { FOUR_AGENT_DEBATE, agentsOn, debaterScript } from '../debate/scripts.js';
import { startWorld } from '../dialogic/world.js';

/** Model output that would run or restyle the page if any report failed to escape it. */
export const HOSTILE = `<script>window.__pwned = 1</script></style><style>body{display:none}</style><img src=x onerror="window.__pwned=2"> | **bold** [link](http://example.com)`;

export const QUESTION = 'Should the cache use Redis or Memcached?';

/** A minimal-mode deliberation through the real store: challenges over two iterations, a ledger, synthesized. */
export async function argumentationRun(dir: string, options: DepsOptions = {}): Promise<{ statePath: string; id: string; deps: ReturnType<typeof createDeps> }> {
  const deps = createDeps({ home: dir, env: {}, clock: () => new Date('2026-05-01T10:00:00Z'), ...options });
  const d = deps.deliberations;
  const id = 'report-delib';
  await d.start({ question: `${QUESTION} ${HOSTILE}`, mode: 'minimal' }, id);
  await d.apply(id, 'ledger_update', { action: 'add', text: 'The service runs on one host.', tag: 'user' });
  await d.apply(id, 'reply_record', {
    text: `1. Redis supports persistence. EVIDENCE: docs say RDB snapshots.\n2. Memcached is simpler to operate. INFERENCE\n3. ${HOSTILE} INFERENCE`,
    sessionId: 'sess-1',
  });
  for (const pointId of ['P1.1', 'P1.2', 'P1.3']) await d.apply(id, 'point_triage', { pointId, triage: 'in-scope', reason: 'it answers the question asked' });
  await d.apply(id, 'point_evaluate', { pointId: 'P1.1', classification: 'SKEPTICAL', flaw: 'Persistence is irrelevant for a pure cache.' });
  await d.apply(id, 'point_evaluate', { pointId: 'P1.2', classification: 'AGREE', claimType: 'value', reason: 'simplicity matters for a small team' });
  await d.apply(id, 'point_evaluate', { pointId: 'P1.3', classification: 'REJECT', flaw: `Not an argument: ${HOSTILE}`, claimType: 'empirical', evidence: 'the point text itself', terminalWhy: 'it is markup, not a claim' });
  await d.apply(id, 'iteration_advance', {});
  await d.apply(id, 'reply_record', { text: 'Re C1: warm restarts matter for us. EVIDENCE: runbook.md:4 "restart weekly"' });
  await d.apply(id, 'challenge_resolve', { challengeId: 'C1', verdict: 'accepted', reason: 'the runbook shows weekly restarts', claimType: 'empirical', evidenceType: 'textual', evidence: 'runbook.md:4 "restart weekly"' });
  await d.apply(id, 'iteration_advance', { trivial: true });
  await d.apply(id, 'delib_synthesize', {});
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
