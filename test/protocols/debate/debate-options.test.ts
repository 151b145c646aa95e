import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { startScriptedChat, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { FOUR_AGENT_DEBATE, agentsOn, debaterScript, roundOf } from './scripts.js';

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'parley-debate-opts-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const MODELS = ['m1', 'm2', 'm3', 'm4'];
const question = 'Should we ship the release today?';
const byModelThenOrder = (requests: ChatRequestRecord[]) =>
  MODELS.flatMap((model) => requests.filter((req) => req.model === model).map((req) => req.messages));

describe('anonymised vs identity-visible runs', () => {
  it('differ only in the agent labels of the prompts', async () => {
    const server = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    try {
      const agents = agentsOn(server.baseUrl, MODELS);
      const anonymous = await runDebateToFile({ question, agents, rounds: 3 }, { outPath: join(work, 'anon.json') });
      const anonymousRequests = byModelThenOrder(server.requests.splice(0));
      const visible = await runDebateToFile({ question, agents, rounds: 3, anonymise: false }, { outPath: join(work, 'visible.json') });
      const visibleRequests = byModelThenOrder(server.requests);
      expect(anonymous.agents.map((agent) => agent.label)).toEqual(['Agent 1', 'Agent 2', 'Agent 3', 'Agent 4']);
      expect(visible.agents.map((agent) => agent.label)).toEqual(MODELS);
      expect(JSON.stringify(anonymousRequests)).not.toEqual(JSON.stringify(visibleRequests));
      // Renaming "Agent n" to the n-th model name turns every anonymous prompt into the visible one.
      const relabelled = JSON.parse(JSON.stringify(anonymousRequests).replace(/Agent (\d)/g, (_, n: string) => MODELS[Number(n) - 1]!));
      expect(relabelled).toEqual(visibleRequests);
      const strip = (analysis: ReturnType<typeof analyzeDebate>) =>
        JSON.parse(JSON.stringify(analysis.measures, (key, value) => (key === 'label' ? undefined : value)));
      expect(strip(analyzeDebate(visible))).toEqual(strip(analyzeDebate(anonymous)));
    } finally {
      await server.close();
    }
  });
});

describe('concurrency', () => {
  it('sends a round\'s N calls at once: all N are in flight together', async () => {
    const reply = { answer: 'yes', claims: [{ id: 'c1', text: 'fine' }] };
    const script = debaterScript(Object.fromEntries(MODELS.map((model) => [model, [reply]])));
    let inFlight = 0;
    let mostInFlight = 0;
    let allArrived: () => void = () => undefined;
    const arrived = new Promise<void>((done) => (allArrived = done));
    // Each request is held until every agent's has arrived (or 5 s pass, so a sequential run fails instead of hanging).
    const server = await startScriptedChat(async (req) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      if (inFlight === MODELS.length) allArrived();
      await Promise.race([arrived, new Promise((done) => setTimeout(done, 5_000))]);
      inFlight -= 1;
      return script(req);
    });
    try {
      const transcript = await runDebateToFile({ question, agents: agentsOn(server.baseUrl, MODELS), rounds: 1 }, { outPath: join(work, 'conc.json') });
      expect(transcript.rounds[0]!.turns.every((turn) => turn.status === 'ok')).toBe(true);
      expect(mostInFlight).toBe(MODELS.length);
    } finally {
      await server.close();
    }
  });
});

describe('format failures and repair', () => {
  it('repairs once, records a failure that stays uncounted', async () => {
    const good = (answer: string) => JSON.stringify({ answer, claims: [{ id: 'c1', text: `${answer} is right` }] });
    const seen = new Map<string, number>();
    const server = await startScriptedChat((req) => {
      const count = (seen.get(req.model) ?? 0) + 1;
      seen.set(req.model, count);
      if (req.model === 'm2') return { content: 'I think yes, but no JSON today.' };
      if (req.model === 'm3' && count === 1) return { content: '{"answer": ' };
      return { content: good(req.model === 'm1' ? 'yes' : 'no') };
    });
    try {
      const transcript = await runDebateToFile(
        { question, agents: agentsOn(server.baseUrl, ['m1', 'm2', 'm3']), rounds: 1 },
        { outPath: join(work, 'format.json') },
      );
      const turns = Object.fromEntries(transcript.rounds[0]!.turns.map((turn) => [turn.agentId, turn]));
      expect(turns['agent-1']!.status).toBe('ok');
      expect(turns['agent-2']).toMatchObject({ status: 'format-failure', raw: 'I think yes, but no JSON today.' });
      expect(turns['agent-3']).toMatchObject({ status: 'ok', record: { answer: 'no' } });
      expect(seen.get('m2')).toBe(2);
      expect(seen.get('m3')).toBe(2);
      const round = analyzeDebate(transcript).measures.rounds[0]!;
      // Only agents 1 and 3 count: yes vs no -> JS 1, agreement 1/2.
      expect(round).toMatchObject({ validAgents: 2, formatFailures: 1, js: 1, agreement: 0.5 });
      expect(Object.keys(round.answers)).toEqual(['agent-1', 'agent-3']);
    } finally {
      await server.close();
    }
  });
});

describe('resuming an interrupted debate', () => {
  it('replays recorded calls and sends only the missing ones', async () => {
    const server = await startScriptedChat(debaterScript(FOUR_AGENT_DEBATE));
    const outPath = join(work, 'resume.json');
    const config = { question, agents: agentsOn(server.baseUrl, MODELS), rounds: 3 };
    try {
      const controller = new AbortController();
      await expect(
        runDebateToFile(config, {
          outPath,
          signal: controller.signal,
          onProgress: (update) => {
            if (update.done === 4) controller.abort(new Error('interrupted'));
          },
        }),
      ).rejects.toThrow('interrupted');
      expect(server.requests).toHaveLength(4);
      server.requests.splice(0);
      const transcript = await runDebateToFile(config, { outPath });
      expect(server.requests.map(roundOf)).toEqual([2, 2, 2, 2]);
      expect(transcript.rounds[0]!.turns.every((turn) => turn.replayed)).toBe(true);
      expect(transcript.rounds[1]!.turns.some((turn) => turn.replayed)).toBe(false);
      expect(transcript.stop).toEqual({ reason: 'unanimity', roundsRun: 2 });
      expect(analyzeDebate(transcript).measures.summary.conformity).toBe(0.5);
    } finally {
      await server.close();
    }
  });
});
