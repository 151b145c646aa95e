/**
 * Scripted worlds for sweeps: every reply is a pure function of the request (many runs share one
 * server, concurrently), and every request carries its run's seed, so the server can attribute it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { classify, replyFor, termText, verdictFor } from '../dialogic/world.js';
import { startScriptedChat, type ChatRequestRecord, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { debaterScript } from '../debate/scripts.js';
import { expandSweep, parseSweepMatrix, seedForRun } from '../../../protocols/sweep/index.js';
import type { SweepMatrix, SweepMatrixInput, SweepRunPlan } from '../../../schemas/sweep.js';

/** Terms each model proposes; K kept, D dropped, RA refined and accepted, RD conceded, RC counter-revised. */
export const TERMS: Record<string, string[]> = {
  a1: ['K a1 one', 'RA a1 two', 'RC a1 three', 'K a1 four'],
  b1: ['K b1 one', 'RD b1 two', 'K b1 three', 'D b1 four'],
  a2: ['D a2 one', 'RD a2 two', 'K a2 three', 'D a2 four'],
  b2: ['D b2 one', 'RA b2 two', 'D b2 three', 'K b2 four'],
};

export function dialogicReply(delayMs: number) {
  return (req: ChatRequestRecord) => {
    const view = classify(req);
    const content = (() => {
      switch (view.kind) {
        case 'generate':
          return { terms: (TERMS[view.model] ?? []).map(termText) };
        case 'regenerate':
          return { exhausted: true, exhaustion_statement: 'Nothing is left to name.', terms: [] };
        case 'respond':
        case 'counter':
          return verdictFor(view.termName ?? '', view.kind);
        case 'reply':
          return replyFor(view.termName ?? '');
        case 'repair':
          throw new Error('no repair expected in a sweep world');
      }
    })();
    return { content: JSON.stringify(content), delayMs };
  };
}

export const startDialogicWorld = (delayMs = 0) => startScriptedChat(dialogicReply(delayMs));

/** 2 pairings x 2 anonymisation settings x 2 repetitions. */
export function dialogicMatrix(chat: ScriptedChat, extra: Partial<SweepMatrixInput> = {}): SweepMatrix {
  const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
  return parseSweepMatrix({
    name: 'capitulation',
    protocol: 'dialogic',
    base: { maxCycles: 3, retryBaseMs: 1, temperature: 0.5 },
    matrix: {
      pairing: [
        { label: 'p1', set: { modelA: spec('a1'), modelB: spec('b1') } },
        { label: 'p2', set: { modelA: spec('a2'), modelB: spec('b2') } },
      ],
      anonymise: [true, false],
    },
    repetitions: 2,
    ...extra,
  });
}

const turn = (answer: string) => ({ answer, claims: [{ id: 'c1', text: `I hold ${answer}.` }] });

export const DEBATERS: Record<string, unknown[]> = {
  d1: [turn('yes'), turn('yes'), turn('yes')],
  d2: [turn('no'), turn('yes'), turn('yes')],
  d3: [turn('no'), turn('no'), turn('yes')],
  crit: [
    {
      agents: ['Agent 1', 'Agent 2', 'Agent 3'].map((agent) => ({
        agent,
        pillars: { logicalValidity: 0.8, evidentialSupport: 0.7, alternativeConsideration: 0.6, causalAlignment: 0.9 },
      })),
    },
  ],
};

export const startDebateWorld = (delayMs = 0) => startScriptedChat(debaterScript(DEBATERS, delayMs));

/** N in {2, 3} x PID off/on, 3 rounds without early stops. */
export function debateMatrix(chat: ScriptedChat, extra: Partial<SweepMatrixInput> = {}): SweepMatrix {
  const spec = (model: string) => `openai-compatible:${chat.baseUrl}#${model}`;
  return parseSweepMatrix({
    protocol: 'debate',
    base: { question: 'Ship today?', options: ['yes', 'no'], rounds: 3, stop: { onConvergence: false, onUnanimity: false } },
    matrix: {
      agents: [['d1', 'd2'].map((model) => ({ model: spec(model) })), ['d1', 'd2', 'd3'].map((model) => ({ model: spec(model) }))],
      pid: [
        { label: 'off', set: { pid: null, crit: null } },
        { label: 'on', set: { pid: {}, crit: { judge: spec('crit'), variant: 'pillars' } } },
      ],
    },
    ...extra,
  });
}

/** The run a request belongs to, by the seed the sweep asked for. */
export function runOfRequest(plans: readonly SweepRunPlan[]): (req: ChatRequestRecord) => string {
  const bySeed = new Map(plans.map((plan) => [seedForRun(plan.id), plan.id]));
  return (req) => {
    const id = bySeed.get(req.body.seed as number);
    if (!id) throw new Error(`request #${req.index} carries no known run seed`);
    return id;
  };
}

export async function writeMatrixFile(matrix: SweepMatrix): Promise<{ path: string; plans: SweepRunPlan[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-sweep-matrix-'));
  const path = join(dir, 'matrix.yaml');
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, stringify(matrix), 'utf8');
  return { path, plans: expandSweep(matrix) };
}
