import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { createBackend } from '../../../wrapper/model-spec.js';
import { claudeBin, createClaudeHome, type ClaudeHome } from '../../doubles/claude-home.js';
import { makeCodexHome, type CodexHome } from '../../doubles/codex-home.js';
import { isTitleRequest, startScriptedAnthropic, type ScriptedAnthropic } from '../../doubles/scripted-anthropic.js';
import { startScriptedChat, type ScriptedChat } from '../../doubles/scripted-chat.js';
import { startScriptedResponses, type ScriptedResponsesServer } from '../../doubles/scripted-responses.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');

// Each debater answers by the round named in the prompt it received.
const REPLIES: Record<string, Record<number, object>> = {
  chat: {
    1: { answer: 'postgres', claims: [{ id: 'c1', text: 'Joins are central to the workload.' }], evidence: ['schema.sql'] },
    2: { answer: 'postgres', references: [{ agent: 'Agent 2', claim: 'R1-A2-c1', stance: 'rebut', note: 'documents still need joins' }], evidence: ['schema.sql'] },
  },
  codex: {
    1: { answer: 'mongodb', claims: [{ id: 'c1', text: 'The records are schemaless documents.' }], evidence: ['sample.json'] },
    2: { answer: 'postgres', references: [{ agent: 'Agent 1', claim: 'R1-A1-c1', stance: 'concede' }], evidence: ['schema.sql'] },
  },
  claude: {
    1: { answer: 'postgres', claims: [{ id: 'c1', text: 'Postgres has JSONB for the odd document.' }], evidence: ['docs/jsonb'] },
    2: { answer: 'postgres', references: [{ agent: 'Agent 2', claim: 'R1-A2-c1', stance: 'rebut' }], evidence: ['docs/jsonb'] },
  },
};
const roundIn = (text: string): number => Number(/Round (\d+) of /.exec(text)?.[1] ?? 0);

let chat: ScriptedChat | undefined;
let responses: ScriptedResponsesServer | undefined;
let anthropic: ScriptedAnthropic | undefined;
let codexHome: CodexHome | undefined;
let claudeHome: ClaudeHome | undefined;
afterEach(async () => {
  await Promise.all([chat?.close(), responses?.close(), anthropic?.close(), codexHome?.cleanup(), claudeHome?.remove()]);
});

describe('a debate with a real codex agent and a real claude -p agent', () => {
  it('runs two rounds across three backends, resumes both CLI sessions, and builds the graph', { timeout: 240_000 }, async () => {
    chat = await startScriptedChat((req) => ({ content: JSON.stringify(REPLIES.chat![roundIn(req.messages.at(-1)?.content ?? '')]) }));
    responses = await startScriptedResponses(({ body }) => {
      const user = (body.input ?? []).filter((item: { role?: string }) => item.role === 'user').at(-1);
      const text = (user?.content ?? []).map((part: { text?: string }) => part.text ?? '').join('\n');
      return { text: JSON.stringify(REPLIES.codex![roundIn(text)]) };
    });
    anthropic = await startScriptedAnthropic((req) => {
      if (isTitleRequest(req)) return { text: 'Debate' };
      const reply = REPLIES.claude![roundIn(req.lastUserText)];
      if (!reply) return { text: 'done' };
      const offersSchema = (req.body.tools ?? []).some((tool: { name: string }) => tool.name === 'StructuredOutput');
      return offersSchema ? { toolUse: { name: 'StructuredOutput', input: reply } } : { text: JSON.stringify(reply) };
    });
    codexHome = await makeCodexHome(responses.baseUrl);
    claudeHome = await createClaudeHome(anthropic.baseUrl);
    const codexEnv = codexHome;
    const claudeEnv = claudeHome;
    const outPath = join(await mkdtemp(join(tmpdir(), 'parley-debate-real-')), 'debate.json');
    const transcript = await runDebateToFile(
      {
        question: 'Postgres or MongoDB for the order service?',
        agents: [{ model: `openai-compatible:${chat.baseUrl}#m1` }, { model: 'codex:fake-model' }, { model: 'claude:claude-sonnet-4-5' }],
        rounds: 2,
      },
      {
        outPath,
        backendFor: (spec) =>
          spec.startsWith('codex')
            ? createBackend(spec, { binPath: CODEX_BIN, env: codexEnv.env, cwd: codexEnv.workDir, timeoutMs: 90_000 })
            : spec.startsWith('claude')
              ? createBackend(spec, { binPath: claudeBin, env: claudeEnv.env, cwd: claudeEnv.cwd, timeoutMs: 120_000 })
              : createBackend(spec),
      },
    );
    expect(transcript.rounds).toHaveLength(2);
    const answers = transcript.rounds.map((round) => Object.fromEntries(round.turns.map((turn) => [turn.agentId, turn.status === 'ok' ? turn.record?.answer : `${turn.status}: ${turn.error}`])));
    expect(answers[0]).toEqual({ 'agent-1': 'postgres', 'agent-2': 'mongodb', 'agent-3': 'postgres' });
    expect(answers[1]).toEqual({ 'agent-1': 'postgres', 'agent-2': 'postgres', 'agent-3': 'postgres' });
    // One call per agent per round; the CLIs resumed their own session in round 2.
    expect(chat.requests).toHaveLength(2);
    expect(responses.requests.filter((r) => r.path.endsWith('/responses'))).toHaveLength(2);
    const codexRound2 = responses.requests.at(-1)!.body.input as { role?: string }[];
    expect(codexRound2.filter((item) => item.role === 'user').length).toBeGreaterThanOrEqual(2);
    const claudeTurns = anthropic.requests.filter((req) => !isTitleRequest(req) && roundIn(req.lastUserText) > 0);
    expect(claudeTurns.map((req) => roundIn(req.lastUserText))).toEqual([1, 2]);
    // Round 2 resumed claude's session: the earlier round is in the API conversation, not pasted into the prompt.
    expect(claudeTurns[1]!.body.messages.length).toBeGreaterThan(2);
    expect(claudeTurns[1]!.lastUserText).not.toMatch(/Earlier turns of this conversation/);
    const analysis = analyzeDebate(transcript);
    const edges = analysis.graph.edges.filter((edge) => edge.round === 2);
    expect(edges.map((edge) => `${edge.from}->${edge.to}:${edge.stance}`).sort()).toEqual([
      'agent-1->R1-A2-c1:rebut',
      'agent-1->agent-2:rebut',
      'agent-2->R1-A1-c1:concede',
      'agent-2->agent-1:concede',
      'agent-3->R1-A2-c1:rebut',
      'agent-3->agent-2:rebut',
    ]);
  });
});
