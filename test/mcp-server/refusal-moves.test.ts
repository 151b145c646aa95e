import { afterEach, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BackendError } from '../../wrapper/backend.js';
import type { CodexCallOptions } from '../../wrapper/codex/index.js';
import { toolWitnesses, type Candidate } from '../protocols/argumentation/witnesses.js';
import { fakeCodex, startHarness, type Harness } from './harness.js';

// Issue 11, items 6 and 11, through the MCP tools (real SDK Client, in-memory transport): every move a
// tool's refusal names succeeds for some arguments. The server refuses only by asking the engine
// (consultPrecheck, arbitrationPrecheck, the moves themselves), so its legal moves are the engine's.
// Each named move is tried on a fresh replay of the scenario, with the engine's witness arguments
// (test/protocols/argumentation/witnesses.ts) sent as tool calls.

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

const QUESTION = 'Redis or Memcached for the session cache?';
const RECOMMENDATION = { recommendation: 'Redis, with snapshots on', confidence: 'medium' };
const FIRST = '1. Redis keeps sessions across a restart. INFERENCE\n2. Memcached is faster for small values. GUESS';

/** The consultee: by iteration, then whatever `later` says (a function of the prompt). */
function consultee(later: (prompt: string) => string) {
  return (prompt: string) => (/Iteration 1\//.test(prompt) && !prompt.includes('(RETRY') ? FIRST : later(prompt));
}

interface Scenario {
  name: string;
  codex(): (options: CodexCallOptions) => Promise<Awaited<ReturnType<ReturnType<typeof fakeCodex>['run']>>>;
  /** Drives the deliberation to the state under test; returns its id. */
  setup(h: Harness): Promise<string>;
  /** Calls that must be refused there (or leave refused items), with the rule each must name. */
  probes: { tool: string; args?: Record<string, unknown>; rule: string; legal?: string[] }[];
}

const agreeP11 = { id: 'P1.1', verdict: 'AGREE', claimType: 'value', reason: 'a restart must not log every user out' };
const objectP12 = { id: 'P1.2', verdict: 'SKEPTICAL', flaw: 'No measurement shows a gap that matters at this load.' };

const scenarios: Scenario[] = [
  {
    // The audit's reproduction: the quick cap with P1.2 still contested.
    name: 'quick, ended at the cap with P1.2 contested',
    codex: () => fakeCodex(consultee(() => 'No further points.')).run,
    async setup(h) {
      const id: string = (await h.ok('delib_start', { question: QUESTION, mode: 'quick' })).deliberationId;
      await h.ok('delib_judge', { deliberationId: id, points: [agreeP11, objectP12], phase: { advance: true } });
      const ended = await h.ok('delib_judge', { deliberationId: id, phase: { advance: true } });
      expect(ended.at).toBe('n=2 terminated');
      expect(ended.effects).toEqual(['iteration cap reached']);
      expect(ended.next).toEqual(['delib_judge: place P1.2 (points with a bucket)']);
      return id;
    },
    probes: [
      { tool: 'delib_consult', rule: 'deliberation-terminated', legal: ['delib_judge'] },
      { tool: 'delib_synthesize', args: RECOMMENDATION, rule: 'coverage', legal: ['delib_judge'] },
      { tool: 'delib_arbitrate', rule: 'mode-quick', legal: ['delib_judge'] },
    ],
  },
  {
    name: 'quick, the second turn unusable: both turns spent',
    codex: () => fakeCodex(consultee(() => 'Well, it depends on the load.')).run,
    async setup(h) {
      const id: string = (await h.ok('delib_start', { question: QUESTION, mode: 'quick' })).deliberationId;
      const judged = await h.ok('delib_judge', { deliberationId: id, points: [agreeP11, objectP12], phase: { advance: true } });
      expect(judged.consult).toMatchObject({ status: 'done' });
      return id;
    },
    probes: [
      { tool: 'delib_consult', rule: 'quick-turns-spent', legal: ['delib_judge'] },
      { tool: 'delib_consult', args: { reply: 'Re P1.2: it holds. INFERENCE' }, rule: 'quick-turns-spent', legal: ['delib_judge'] },
    ],
  },
  {
    name: 'standard, the reply of iteration 1 recorded',
    codex: () => fakeCodex(consultee(() => 'No further points.')).run,
    async setup(h) {
      return (await h.ok('delib_start', { question: QUESTION, mode: 'standard' })).deliberationId;
    },
    probes: [
      { tool: 'delib_consult', rule: 'reply-already-recorded', legal: ['delib_judge'] },
      { tool: 'delib_consult', args: { reply: '1. Another point. INFERENCE' }, rule: 'reply-already-recorded', legal: ['delib_judge'] },
      { tool: 'delib_synthesize', args: RECOMMENDATION, rule: 'not-terminated', legal: ['delib_judge'] },
      { tool: 'delib_arbitrate', rule: 'arbitrate-after-termination', legal: ['delib_judge'] },
    ],
  },
  {
    name: 'standard, synthesized and arbitrated',
    codex: () => fakeCodex(consultee(() => 'No further points.')).run,
    async setup(h) {
      const id: string = (await h.ok('delib_start', { question: QUESTION, mode: 'standard' })).deliberationId;
      const p12 = { id: 'P1.2', verdict: 'AGREE', claimType: 'value', reason: 'speed matters little at this load' };
      await h.ok('delib_judge', { deliberationId: id, points: [agreeP11, p12], phase: { advance: true } });
      const ended = await h.ok('delib_judge', { deliberationId: id, phase: { advance: true }, synthesis: RECOMMENDATION });
      expect(ended.brief).toBeTruthy();
      await h.ok('delib_arbitrate', { deliberationId: id, items: [{ ref: 'P1.1', flagged: false }, { ref: 'P1.2', flagged: true, note: 'taste' }] });
      return id;
    },
    probes: [
      // Refused before any model call: this server has no reviewer backend at all (it would throw).
      { tool: 'delib_arbitrate', rule: 'already-arbitrated' },
      { tool: 'delib_consult', rule: 'deliberation-terminated' },
    ],
  },
  {
    name: 'minimal, a consult still running',
    codex: () => {
      const codex = fakeCodex(consultee(() => 'No further points.'));
      return async (options) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return codex.run(options);
      };
    },
    async setup(h) {
      const started = await h.ok('delib_start', { question: QUESTION, consult: { waitSeconds: 0 } });
      expect(started.consult).toEqual({ status: 'running' });
      return started.deliberationId;
    },
    probes: [
      { tool: 'delib_judge', args: { phase: { advance: true } }, rule: 'consult-running', legal: ['delib_consult'] },
      { tool: 'delib_consult', args: { reply: FIRST }, rule: 'consult-running', legal: ['delib_consult'] },
    ],
  },
  {
    name: 'minimal, the first consult failed',
    codex: () => {
      let calls = 0;
      const codex = fakeCodex(consultee(() => 'No further points.'));
      return async (options) => {
        if (++calls === 1) throw new BackendError('timeout', 'codex did not answer within 600 s');
        return codex.run(options);
      };
    },
    async setup(h) {
      return (await h.ok('delib_start', { question: QUESTION, consult: false })).deliberationId;
    },
    probes: [{ tool: 'delib_consult', rule: 'consult-failed', legal: ['delib_consult'] }],
  },
  {
    name: 'minimal, started without a consult',
    codex: () => fakeCodex(consultee(() => 'No further points.')).run,
    async setup(h) {
      return (await h.ok('delib_start', { question: QUESTION, consult: false })).deliberationId;
    },
    probes: [
      // A judgment's refused item that names tools, not actions.
      { tool: 'delib_judge', args: { phase: { advance: true } }, rule: 'valid-reply-required', legal: ['delib_consult'] },
      { tool: 'delib_synthesize', args: RECOMMENDATION, rule: 'not-terminated', legal: ['delib_consult'] },
    ],
  },
];

const text = (r: CallToolResult) => (r.content as { text?: string }[]).map((c) => c.text ?? '').join('\n');

/** A refusal's rule and the tools it names: the error text, or a judgment's refused items. */
function refusalOf(r: CallToolResult): { rule: string; legal: string[] } | undefined {
  if (r.isError) {
    const m = /^\[([\w-]+)\] [\s\S]*?(?: Legal next moves: ([\w, ]+)\.)?$/.exec(text(r));
    return m ? { rule: m[1]!, legal: m[2] ? m[2].split(', ') : [] } : undefined;
  }
  const refused = (r.structuredContent as { refused?: { rule: string; ref?: string; legal: string[] }[] }).refused?.filter((i) => !/^[PC]\d/.test(i.ref ?? ''));
  return refused?.length ? { rule: refused[0]!.rule, legal: refused[0]!.legal } : undefined;
}

/** The engine's witness arguments for a tool, as the MCP call that makes the same move. */
function asCall(id: string, [move, input]: Candidate): [string, Record<string, unknown>] {
  const args = { deliberationId: id, ...(input as Record<string, unknown>) };
  if (move === 'reply_record') return ['delib_consult', { deliberationId: id, waitSeconds: 10 }];
  if (move === 'judge') return ['delib_judge', { ...args, consult: false }];
  if (move === 'synthesize') return ['delib_synthesize', args];
  return ['delib_arbitrate', args];
}

async function replay(scenario: Scenario): Promise<{ h: Harness; id: string }> {
  const h = await startHarness({ runCodex: scenario.codex() });
  open.push(h);
  await h.client.listTools();
  return { h, id: await scenario.setup(h) };
}

/** The scenario replayed up to and including the refused probe. */
async function refusedReplay(scenario: Scenario, probe: Probe) {
  const { h, id } = await replay(scenario);
  expect(refusalOf(await probeCall(h, id, probe))?.rule).toBe(probe.rule);
  return { h, id, state: (await h.deps.deliberations.get(id)).state };
}

type Probe = Scenario['probes'][number];
const probeCall = (h: Harness, id: string, probe: Probe) => h.call(probe.tool, { deliberationId: id, ...probe.args });

/** After the refusal (on a fresh replay), some witness for `tool` succeeds: no error, no refused item, a judgment changes the state. */
async function succeedsSomehow(scenario: Scenario, probe: Probe, tool: string): Promise<string | undefined> {
  const misses: string[] = [];
  for (const candidate of toolWitnesses((await refusedReplay(scenario, probe)).state, tool)) {
    const { h, id } = await refusedReplay(scenario, probe);
    const [name, args] = asCall(id, candidate);
    const before = JSON.stringify((await h.deps.deliberations.get(id)).state);
    const r = await h.call(name, args);
    const after = JSON.stringify((await h.deps.deliberations.get(id)).state);
    const content = r.structuredContent as { refused?: unknown[]; consult?: { status: string } } | undefined;
    if (!r.isError && !content?.refused?.length && (name !== 'delib_judge' || after !== before) && content?.consult?.status !== 'running') return undefined;
    misses.push(`${name} ${JSON.stringify(args)} -> ${r.isError ? text(r) : JSON.stringify(r.structuredContent)}`);
  }
  return misses.join('\n') || 'no witness arguments known';
}

describe("every move a tool's refusal names is legal (MCP tools, in-memory)", () => {
  for (const scenario of scenarios) {
    it(scenario.name, async () => {
      for (const probe of scenario.probes) {
        const { h, id } = await replay(scenario);
        const refusal = refusalOf(await probeCall(h, id, probe));
        expect(refusal?.rule, `${probe.tool} ${JSON.stringify(probe.args ?? {})}`).toBe(probe.rule);
        if (probe.legal) expect(refusal?.legal).toEqual(probe.legal);
        for (const tool of refusal?.legal ?? []) {
          const miss = await succeedsSomehow(scenario, probe, tool);
          expect(miss, `${tool}, named by ${probe.tool}'s refusal ${probe.rule} in "${scenario.name}"`).toBeUndefined();
        }
      }
    });
  }
});
