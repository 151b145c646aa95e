import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeDebate, runDebateToFile } from '../../../protocols/debate/index.js';
import { startScriptedChat, type ChatReply, type ChatRequestRecord } from '../../doubles/scripted-chat.js';
import { agentsOn } from './scripts.js';

const work = await mkdtemp(join(tmpdir(), 'parley-debate-control-'));
afterAll(async () => rm(work, { recursive: true, force: true }));

const debater = (req: ChatRequestRecord): ChatReply => ({
  content: JSON.stringify({ answer: 'yes', claims: [{ id: 'c1', text: `${req.model} says yes` }], reasoning: 'It works.' }),
});

const crit = {
  agents: [
    {
      agent: 'Agent 1',
      reasons: [
        { text: 'tests pass', validity: 8, credibility: 5 },
        { text: 'users asked', validity: 6, credibility: 5 },
      ],
      rivals: [{ text: 'perf risk', validity: 4, credibility: 10 }],
      pillars: { logicalValidity: 0.8, evidentialSupport: 0.6, alternativeConsideration: 0.4, causalAlignment: 0.6 },
      flags: ['premature_certainty'],
    },
    { agent: 'Agent 2', reasons: [], rivals: [], pillars: { logicalValidity: 1, evidentialSupport: 1, alternativeConsideration: 0.5, causalAlignment: 0.5 } },
  ],
};
const rca = {
  agents: [
    { agent: 'Agent 1', verdict: 'CONSISTENT', explanation: 'kept a well-argued answer', confidence: 0.9 },
    { agent: 'Agent 2', verdict: 'INCONSISTENT_STUBBORN', explanation: 'called the critique valid yet kept its answer', confidence: 0.6 },
  ],
};

describe('CRIT, RCA and the PID controller', () => {
  it('scores, judges and steers the tone as computed by hand', async () => {
    const server = await startScriptedChat((req) => {
      if (req.model === 'crit') return { content: JSON.stringify(crit) };
      if (req.model === 'rca') return { content: JSON.stringify(rca) };
      return debater(req);
    });
    try {
      const transcript = await runDebateToFile(
        {
          question: 'Ship it?',
          agents: agentsOn(server.baseUrl, ['m1', 'm2']),
          rounds: 3,
          crit: { judge: `openai-compatible:${server.baseUrl}#crit` },
          rca: { judge: `openai-compatible:${server.baseUrl}#rca` },
          pid: { beta0: 0.6 },
        },
        { outPath: join(work, 'control.json') },
      );
      const [one, two] = transcript.rounds;
      // Gamma(agent 1) = (8*5 + 6*5 + 4*10) / 3 = 110/3; rho = mean pillars: 0.6 and 0.75; rho_bar = 0.675.
      expect(one!.crit!.scores[0]!.gamma).toBeCloseTo(110 / 3, 6);
      expect(one!.crit!.scores[1]!.gamma).toBeUndefined();
      expect(one!.crit!.scores.map((score) => score.rho)).toEqual([0.6, 0.75]);
      expect(one!.crit!.rhoBar).toBeCloseTo(0.675, 6);
      expect(one!.crit!.scores[0]!.flags).toEqual(['premature_certainty']);
      // Round 1: both say yes -> JS 0 < 0.05 and rho_bar < 0.8: STUCK -> beta 0.6 + 0.1 = 0.7 (adversarial).
      // e = 0.8 - 0.675 = 0.125; e_prev = 0 in round 1, so u = (0.15 + 0.01 + 0.03)*0.125 = 0.02375;
      // beta_pid = 0.9*0.6 + 0.02375 = 0.56375 (recorded; STUCK does not use it).
      expect(one!.tone).toBe('balanced');
      expect(one!.pid!.quadrant).toBe('STUCK');
      expect(one!.pid!.error).toBeCloseTo(0.125, 9);
      expect(one!.pid!.derivative).toBeCloseTo(0.125, 9);
      expect(one!.pid!.control).toBeCloseTo(0.02375, 9);
      expect(one!.pid!.betaPid).toBeCloseTo(0.56375, 9);
      expect(one!.pid!.nextBeta).toBeCloseTo(0.7, 9);
      expect(two!.tone).toBe('adversarial');
      expect(two!.beta).toBeCloseTo(0.7, 9);
      const roundTwoPrompt = server.requests.find((req) => req.model === 'm1' && req.messages.length === 4)!.messages.at(-1)!.content;
      expect(roundTwoPrompt).toMatch(/Tone for this round: adversarial/);
      // The judges never see the ground truth and RCA starts at round 2.
      expect(one!.rca).toBeUndefined();
      expect(two!.rca!.verdicts.map((verdict) => verdict.verdict)).toEqual(['CONSISTENT', 'INCONSISTENT_STUBBORN']);
      expect(server.requests.filter((req) => req.model === 'crit')).toHaveLength(2);
      expect(server.requests.filter((req) => req.model === 'rca')).toHaveLength(1);
      const rcaPrompt = server.requests.find((req) => req.model === 'rca')!.messages.at(-1)!.content;
      expect(rcaPrompt).toContain('Reasoning: It works.');
      expect(transcript.stop.reason).toBe('unanimity');
      const summary = analyzeDebate(transcript).measures.summary;
      expect(summary.rcaVerdicts).toEqual({ CONSISTENT: 1, INCONSISTENT_STUBBORN: 1 });
      expect(analyzeDebate(transcript).measures.rounds.map((round) => round.rhoBar)).toEqual([0.675, 0.675]);
    } finally {
      await server.close();
    }
  });
});
