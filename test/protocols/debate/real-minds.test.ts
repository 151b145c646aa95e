/**
 * Debates whose models were real minds (scripts/real-minds: relay-chat.ts, run-chat.ts): each trial
 * kept in real-minds/ is replayed from the minds' own replies and must give the same debate. The
 * rehearsal runs the same scripts with scripted minds, so the rig and the replay are tested even
 * before a trial exists.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDebateToFile } from '../../../protocols/debate/index.js';
import { DebateTranscript } from '../../../schemas/debate.js';
import { answerRelayPrompts, startRecordedMinds } from '../../doubles/recorded-minds.js';
import { runChat, startRelayChat, TRIAL_CONFIGS } from '../../scripts/relay-chat-process.js';

const ROOT = join(import.meta.dirname, 'real-minds');
const trials = existsSync(ROOT) ? readdirSync(ROOT) : [];
const work = await mkdtemp(join(tmpdir(), 'parley-debate-minds-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

/** What a debate is, without what varies between a live run and its replay (times, usage, latency). */
const debateOf = (transcript: DebateTranscript) => ({
  stop: transcript.stop,
  rounds: transcript.rounds.map(({ round, order, tone, beta, turns, crit, rca, pid }) => ({
    round,
    order,
    tone,
    beta,
    crit,
    rca,
    pid,
    turns: turns.map(({ agentId, status, record, raw, error }) => ({ agentId, status, record, raw, error })),
  })),
});

/** The trial's config with every `relay:<model>` answered from the minds' recorded replies. */
async function replay(trial: string, name: string): Promise<{ transcript: DebateTranscript; unanswered: string[]; leftOver: string[] }> {
  const minds = await startRecordedMinds(trial);
  try {
    const text = readFileSync(join(trial, 'config.json'), 'utf8').replace(/"relay:([^"]+)"/g, (_, model: string) => JSON.stringify(minds.spec(`#${model}`)));
    const transcript = await runDebateToFile(JSON.parse(text), { outPath: join(work, `${name}.json`) });
    return { transcript, unanswered: minds.unanswered, leftOver: minds.leftOver() };
  } finally {
    await minds.chat.close();
  }
}

/** Scripted minds for the rehearsal: debaters answer by the round named, the judge by its task. */
function scriptedMind(model: string, prompt: { user: string }): string {
  if (prompt.user.startsWith('The session is over')) return 'Nothing was unclear.';
  const agents = ['Agent 1', 'Agent 2', 'Agent 3'];
  if (model === 'judge') {
    const pillars = { logicalValidity: 0.7, evidentialSupport: 0.6, alternativeConsideration: 0.5, causalAlignment: 0.7 };
    return JSON.stringify(
      prompt.user.startsWith('You audit')
        ? { agents: agents.map((agent) => ({ agent, reasons: [{ text: 'one pipeline', validity: 7, credibility: 5 }], rivals: [], pillars, flags: [] })) }
        : { agents: agents.map((agent) => ({ agent, verdict: 'CONSISTENT', explanation: 'Its answer follows.', confidence: 0.8 })) },
    );
  }
  const n = Number(model.slice(-1));
  const round = Number(/Round (\d+) of/.exec(prompt.user)?.[1]);
  const answer = n === 3 ? 'polyrepo' : 'monorepo';
  const other = n === 1 ? 3 : 1;
  return JSON.stringify({
    answer,
    claims: [{ id: 'c1', text: `Round ${round}: ${answer} suits us.` }],
    references: round > 1 ? [{ agent: `Agent ${other}`, claim: `R1-A${other}-c1`, stance: n === 2 ? 'qualify' : 'rebut' }] : [],
    evidence: [],
  });
}

describe('the real-minds rig for debates', () => {
  it('runs scripts/real-minds/debate.json through relay-chat and run-chat, and the trial it leaves replays to the same debate', { timeout: 120_000 }, async () => {
    const trial = join(work, 'rehearsal');
    const relay = await startRelayChat(trial);
    const minds = answerRelayPrompts(trial, scriptedMind);
    let printed: string;
    try {
      printed = await runChat(trial, 'debate', TRIAL_CONFIGS.debate);
    } finally {
      await minds.stop();
      await relay.stop();
    }
    expect(printed).toContain('6/6 valid turns');
    expect(printed).toContain('reference edges (agent to agent, summed): 3');
    expect(printed).toContain('calls per mind: debater-1 2, debater-2 2, debater-3 2, judge 3');
    expect(printed).toContain('judge: "Nothing was unclear."');
    expect(JSON.parse(readFileSync(join(trial, 'config.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(TRIAL_CONFIGS.debate, 'utf8')));
    const live = DebateTranscript.parse(JSON.parse(readFileSync(join(trial, 'output.json'), 'utf8')));
    expect(live.rounds.map((round) => round.pid !== undefined)).toEqual([true, true]);
    const replayed = await replay(trial, 'rehearsal-replay');
    expect(replayed.unanswered).toEqual([]);
    expect(replayed.leftOver).toEqual([]);
    expect(debateOf(replayed.transcript)).toEqual(debateOf(live));
  });
});

describe.each(trials)('real minds, debate trial %s', (name) => {
  it('replays from the minds\' replies to the debate they had', async () => {
    const trial = join(ROOT, name);
    const recorded = DebateTranscript.parse(JSON.parse(readFileSync(join(trial, 'output.json'), 'utf8')));
    const replayed = await replay(trial, name);
    expect(replayed.unanswered).toEqual([]);
    expect(replayed.leftOver).toEqual([]);
    expect(debateOf(replayed.transcript)).toEqual(debateOf(recorded));
  });
});
