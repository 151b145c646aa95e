/**
 * The demo's argumentation deliberation: parley's own MCP server (in this process, through the SDK's
 * in-memory transport), whose consults run the real Codex CLI in a CODEX_HOME of their own that
 * points Codex at the demo model; the orchestrator's side is a short scripted judgment sent through
 * the same tools an agent calls (delib_start, then one delib_judge per iteration).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createDeps } from '../mcp-server/deps.js';
import { createServer } from '../mcp-server/server.js';
import { runCodex } from '../wrapper/codex/index.js';
import { localProviderConfig } from '../wrapper/codex/local-provider.js';

export const DEMO_QUESTION = 'Should we put a Redis cache in front of Postgres for our product catalogue?';
const CONSTRAINTS = ['The catalogue changes a few times a day and is read on every page view.', 'The team is five engineers and runs its own servers.'];

/** What the scripted orchestrator decides about the consultee's first points, in order (the demo model's replies are known). */
const FIRST_JUDGMENT = [
  { verdict: 'AGREE', claimType: 'logical', premises: ['F1'], reason: 'a read-mostly table that changes a few times a day is what a cache is for' },
  { verdict: 'SKEPTICAL', flaw: 'No measurement shows that the catalogue rows are served from memory under production load.' },
  { verdict: 'AGREE', claimType: 'value', reason: 'for a shop a wrong price costs more than a slow page' },
  { verdict: 'AGREE', claimType: 'value', reason: 'measuring first is cheaper than removing a datastore later' },
  { verdict: 'REJECT', flaw: '"Always" is false: a read served from memory is fast in either store.', claimType: 'empirical', evidence: 'both serve hot rows from RAM; the network round trip dominates', terminalWhy: 'an absolute claim falls to one counterexample' },
];
/** A defense is accepted on the evidence it quotes; what stays open goes to the user as a question. */
const ACCEPTED = {
  verdict: 'accepted',
  claimType: 'empirical',
  evidenceType: 'textual',
  evidence: 'postgresql.conf.sample "#shared_buffers = 128MB"',
  reason: 'the narrowed claim is what the default configuration shows',
};
const QUESTION = 'What p95 latency does the catalogue endpoint show in production today?';
const SYNTHESIS = {
  recommendation: 'Not yet. Measure the p95 latency of the catalogue endpoint first; add Redis only if the database is where the time goes, and then with explicit invalidation on every price change.',
  confidence: 'medium',
  caveats: [
    'Whether Postgres already serves the catalogue from memory was argued, not measured: it stays open until the p95 is known.',
    "This is parley's demo: Codex was answered by parley's local demo model (canned replies chosen by rules, no language model) and these judgments were scripted. It shows the mechanics, not advice.",
  ],
};
const MATERIAL = "parley demo: Codex CLI is pointed at parley's local demo model on 127.0.0.1, and the orchestrator's judgments are scripted.";

export interface DemoDeliberation {
  statePath: string;
  iterations: number;
  codexTurns: number;
  buckets: { agreed: number; dismissed: number; unresolved: number };
}

type Reply = { points?: { id: string }[]; answers?: { challenge?: string }[] };
/** A consult reports Codex's turns only when it took more than one. */
const turnsOf = (result: Result) => (result.consult?.status === 'done' ? (result.consult.codex?.turns ?? 1) : 0);

type Result = { deliberationId?: string; at: string; refused?: unknown[]; consult?: { status: string; codex?: { turns: number }; reply?: Reply } };

/** A CODEX_HOME whose config sends Codex to the demo model (no login, no key); TMPDIR beside it, not around it. */
async function codexHome(baseUrl: string): Promise<{ root: string; env: Record<string, string> }> {
  const root = await mkdtemp(join(tmpdir(), 'parley-demo-codex-'));
  const home = join(root, 'home');
  await mkdir(home);
  await mkdir(join(root, 'tmp'));
  const config = localProviderConfig({
    provider: 'parley-demo',
    name: 'parley demo model',
    model: 'demo-consultee',
    baseUrl,
    settings: [
      'check_for_update_on_startup = false',
      '',
      // No network: no plugin sync, no analytics, no telemetry export (each tried and failed on every call).
      '[features]',
      'plugins = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[otel]',
      'exporter = "none"',
      'metrics_exporter = "none"',
    ],
  });
  await writeFile(join(home, 'config.toml'), config, 'utf8');
  return { root, env: { CODEX_HOME: home, TMPDIR: join(root, 'tmp') } };
}

export async function runDemoDeliberation(options: { baseUrl: string; dir: string; signal: AbortSignal; say: (line: string) => void }): Promise<DemoDeliberation> {
  const codex = await codexHome(options.baseUrl);
  const env = { ...process.env, ...codex.env, PARLEY_CONSULT_CWD: 'empty', PARLEY_CONSULT_TIMEOUT_MS: '120000' };
  const deps = createDeps({ home: options.dir, deliberationsDir: options.dir, env, runCodex: (call) => runCodex({ ...call, env: { ...call.env, ...codex.env } }) });
  const server = createServer(deps);
  const client = new Client({ name: 'parley-demo', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const stop = () => void deps.jobs.shutdown();
  options.signal.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const call = async (name: string, args: Record<string, unknown>): Promise<Result> => {
      options.signal.throwIfAborted();
      const result = (await client.callTool({ name, arguments: args }, undefined, { signal: options.signal, timeout: 600_000 })) as CallToolResult;
      const text = (result.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');
      if (result.isError) throw new Error(`${name} was refused: ${text}`);
      const structured = result.structuredContent as Result;
      if (structured.refused?.length) throw new Error(`${name}: the scripted judgment was refused: ${JSON.stringify(structured.refused)}`);
      return structured;
    };
    const consult = { waitSeconds: 600 };
    let result = await call('delib_start', { question: DEMO_QUESTION, mode: 'minimal', constraints: CONSTRAINTS, material: MATERIAL, consult });
    const id = result.deliberationId!;
    let turns = turnsOf(result);
    options.say(`argumentation: Codex answered iteration 1 with ${result.consult?.reply?.points?.length ?? 0} numbered points`);
    for (let iteration = 1; !result.at.endsWith('terminated'); iteration += 1) {
      if (iteration > 6) throw new Error(`the demo deliberation did not end after 6 iterations (at ${result.at})`);
      const reply = result.consult?.reply ?? {};
      const points = (reply.points ?? []).map((point, index) => ({ id: point.id, ...(iteration === 1 ? (FIRST_JUDGMENT[index] ?? { verdict: 'AGREE', claimType: 'value', reason: 'sound for the case as described' }) : { verdict: 'AGREE', claimType: 'value', reason: 'a fair addition' }) }));
      const challenges = (reply.answers ?? []).flatMap((answer) => (answer.challenge ? [{ id: answer.challenge, ...ACCEPTED }] : []));
      const questions = challenges.length ? [QUESTION] : [];
      result = await call('delib_judge', { deliberationId: id, points, challenges, questions, phase: { advance: true }, synthesis: SYNTHESIS, consult });
      turns += turnsOf(result);
      const judged = [points.length && `${points.length} point(s)`, challenges.length && `${challenges.length} defense(s)`].filter(Boolean).join(' and ') || 'nothing new';
      options.say(`argumentation: the scripted orchestrator judged ${judged}: ${result.at}`);
    }
    const { value: state } = await deps.deliberations.store.read(id);
    return {
      statePath: deps.deliberations.store.pathFor(id),
      iterations: state.n,
      codexTurns: turns,
      buckets: { agreed: state.buckets.agreed.length, dismissed: state.buckets.dismissed.length, unresolved: state.buckets.unresolved.length },
    };
  } finally {
    options.signal.removeEventListener('abort', stop);
    await deps.jobs.shutdown();
    await client.close();
    await server.close();
    await rm(codex.root, { recursive: true, force: true });
  }
}
