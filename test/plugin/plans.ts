import type { Plan } from './orchestrator.js';

/**
 * A binary choice, quick mode, compare framing: the orchestrator objects to one point, Codex
 * answers the objection by point id with a partial concession, the narrowed point is agreed and the
 * same judgment synthesizes. Two Codex turns, three parley calls.
 */
export const quickPlan: Plan = {
  question: 'Redis or Memcached for the session cache of our single-VM app?',
  mode: 'quick',
  framing: 'compare',
  constraints: ['no new managed services'],
  material: 'Redis: in-memory store with optional persistence. Memcached: in-memory cache, no persistence.',
  points: {
    'P1.1': {
      verdict: 'AGREE',
      claimType: 'empirical',
      evidenceType: 'textual',
      evidence: 'redis.io/docs/management/persistence: "RDB (Redis Database): RDB persistence performs point-in-time snapshots"',
      reason: 'sessions survive a restart only with persistence, and the docs state it verbatim',
    },
    'P1.2': { verdict: 'SKEPTICAL', flaw: 'On a single VM both are one package to install, so Memcached is not simpler to run.' },
  },
  challenges: {},
  placements: {
    'P1.2': {
      bucket: 'agreed',
      claimType: 'value',
      reason: 'fewer persistence settings is a real, if small, operational saving',
      revision: { from: 'SKEPTICAL', because: 'the narrowed claim survives my objection' },
    },
  },
  readings: {},
  synthesis: { recommendation: 'Redis, with RDB snapshots on, so sessions survive a restart.', confidence: 'medium', caveats: ['a quick exchange: two rounds, no arbitration'] },
  arbitrate: false,
};

/**
 * A design critique, standard mode: a question for the user surfaces from the reading, a challenge
 * is defended with evidence and accepted, Codex has nothing further, the last judgment synthesizes,
 * and a fresh reviewer arbitrates.
 */
export const standardPlan: Plan = {
  question: 'Should our webhook queue retry failed deliveries with a fixed 30 s delay or exponential backoff?',
  mode: 'standard',
  framing: 'critique-design',
  constraints: ['at most 5 attempts per delivery'],
  material: 'Current design (mine): a failed delivery is retried after a fixed 30 s delay, up to 5 attempts, then dead-lettered.',
  points: {
    'P1.1': { verdict: 'SKEPTICAL', flaw: 'Five attempts 30 s apart is light load; lockstep only matters if failures are correlated.' },
  },
  challenges: {
    'P1.1': {
      verdict: 'accepted',
      claimType: 'empirical',
      evidenceType: 'textual',
      evidence: 'incidents/2024-03.md:12 "all 400 tenants retried within the same second"',
      reason: 'the incident log shows correlated failures, so fixed delays synchronise retries',
    },
  },
  placements: {},
  readings: { question: 'question' },
  synthesis: {
    recommendation: 'Switch to exponential backoff with full jitter, keeping at most 5 attempts.',
    confidence: 'high',
    caveats: ['the correlation rests on one incident'],
  },
  arbitrate: true,
};

export const firstReply = {
  quick: '1. Redis keeps sessions across a restart with RDB snapshots. EVIDENCE: redis.io/docs/management/persistence "point-in-time snapshots"\n2. Memcached is simpler to run for a pure cache. INFERENCE',
  standard: [
    '1. A fixed 30 s delay makes every failed delivery retry in lockstep against a recovering endpoint. INFERENCE',
    '2. Exponential backoff with full jitter spreads the retries out. INFERENCE',
    '',
    'Questions for the user:',
    '- Do all tenants share one upstream endpoint?',
  ].join('\n'),
};

export const USER_QUESTION = 'Do all tenants share one upstream endpoint?';

/** The consultee's defense, citing the challenge id it was shown. */
export function defenseReply(challengeId: string): string {
  return `Re ${challengeId}: failures are correlated: one upstream outage fails every tenant at once. EVIDENCE: incidents/2024-03.md:12 "all 400 tenants retried within the same second"`;
}

/** Quick mode: the answer to an objection, by point id, giving part of the claim up. */
export function objectionReply(pointId: string): string {
  return `Re ${pointId}: partly conceded: on one VM both are a single package, but the narrower claim is: Memcached has no persistence settings to get wrong. INFERENCE`;
}

/** The arbiter's line for each item it was shown ("P1.2 AGREED · value · ..."): agreed value judgments flagged; then a remark. */
export function arbitrationReply(items: string[]): string {
  const lines = items.map((line) => {
    const ref = line.split(' ')[0];
    return / AGREED · value ·/.test(line) ? `${ref}: FLAG a value judgment with no evidence behind it` : `${ref}: OK the cited evidence supports it`;
  });
  return [...lines, 'Remarks: nobody argued for keeping the fixed delay.'].join('\n');
}
