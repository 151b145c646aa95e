import type { Plan } from './orchestrator.js';

/** A binary choice settled in one exchange: quick mode, compare framing. */
export const quickPlan: Plan = {
  question: 'Redis or Memcached for the session cache of our single-VM app?',
  mode: 'quick',
  framing: 'compare',
  constraints: ['no new managed services'],
  evaluate: {
    'P1.1': {
      classification: 'AGREE',
      claimType: 'empirical',
      evidenceType: 'textual',
      evidence: 'redis.io/docs/management/persistence: "RDB (Redis Database): RDB persistence performs point-in-time snapshots"',
      reason: 'sessions survive a restart only with persistence, and the docs state it verbatim',
    },
  },
  resolve: {},
  trivial: true,
};

/** A design critique with one challenge the consultee defends in iteration 2: standard mode. */
export const standardPlan: Plan = {
  question: 'Should our webhook queue retry failed deliveries with a fixed 30 s delay or exponential backoff?',
  mode: 'standard',
  framing: 'critique-design',
  constraints: ['at most 5 attempts per delivery'],
  evaluate: {
    'P1.1': { classification: 'SKEPTICAL', flaw: 'Five attempts 30 s apart is light load; lockstep only matters if failures are correlated.' },
  },
  resolve: {
    'P1.1': {
      verdict: 'accepted',
      claimType: 'empirical',
      evidenceType: 'textual',
      evidence: 'incidents/2024-03.md:12 "all 400 tenants retried within the same second"',
      reason: 'the incident log shows correlated failures, so fixed delays synchronise retries',
    },
  },
  trivial: false,
};

export const firstReply = {
  quick: '1. Redis keeps sessions across a restart with RDB snapshots. EVIDENCE: redis.io/docs/management/persistence "point-in-time snapshots"\n2. Memcached is simpler to run for a pure cache. INFERENCE',
  standard: '1. A fixed 30 s delay makes every failed delivery retry in lockstep against a recovering endpoint. INFERENCE\n2. Exponential backoff with full jitter spreads the retries out. INFERENCE',
};

/** The consultee's defense, citing the challenge id it was shown. */
export function defenseReply(challengeId: string): string {
  return `Re ${challengeId}: failures are correlated: one upstream outage fails every tenant at once. EVIDENCE: incidents/2024-03.md:12 "all 400 tenants retried within the same second"`;
}
