// Worked examples for the RAudit PID controller as the origin code runs it: github.com/TheClassicTechno/
// cs372research, eval/PID/controller.py and eval/PID/tests/ at commit 2b0b158e9f80e7bfc93f3e751e411dc53654b6c4
// (controller.py last changed in 5edb0a7a). Each `origin:` case replays one of its tests with its inputs and
// expected outputs. The origin derives s_t from its JS/overlap history; parley's round-measures.ts does that,
// so here s_t is given as the value the origin's test asserts.
import { describe, expect, it } from 'vitest';
import { PID_INTEGRAL_LIMIT, pidError, pidStabilityCheck, pidStep, pidTerms, quadrantOf, type PidResult, type PidState } from '../../../protocols/debate/pid.js';
import { parseDebateConfig } from '../../../protocols/debate/run.js';
import { PidConfig } from '../../../schemas/debate.js';

const close = (value: number, expected: number) => expect(value).toBeCloseTo(expected, 9);
const base = PidConfig.parse({});
// The origin's config takes gamma_beta = 0, which parley's schema refuses; the step itself does not check it.
const config = (over: Partial<PidConfig> = {}): PidConfig => ({ ...base, ...over });

/** The origin's PIDController: js defaults to 0 as its step() does; state advances as run.ts advances it. */
function controller(cfg: PidConfig, beta0: number) {
  let state: PidState = { beta: beta0, integral: 0 };
  return {
    step(rhoBar: number, js = 0, sycophancy = 0): PidResult {
      const result = pidStep(state, { rhoBar, js, sycophancy }, cfg);
      state = { beta: result.nextBeta, integral: result.integral, previousError: result.error };
      return result;
    },
    get state() {
      return state;
    },
  };
}
const run = (cfg: PidConfig, beta0: number, rounds: { rho: number; js?: number; s?: number }[]) => {
  const ctrl = controller(cfg, beta0);
  return rounds.map((round) => ctrl.step(round.rho, round.js, round.s));
};

describe('origin: compute_error (Eq 5) and compute_pid_output (Eq 6)', () => {
  it('reproduces test_controller.py TestComputeError and TestSycophancyInflatedError', () => {
    expect(pidError({ rhoStar: 0.8, mu: 1 }, 0.8, 0)).toBe(0);
    close(pidError({ rhoStar: 0.8, mu: 0 }, 0.5, 0), 0.3);
    close(pidError({ rhoStar: 0.8, mu: 0 }, 1, 0), -0.2);
    close(pidError({ rhoStar: 0.8, mu: 1 }, 0.8, 1) - pidError({ rhoStar: 0.8, mu: 1 }, 0.8, 0), 1);
    close(pidError({ rhoStar: 0.8, mu: 2.5 }, 0.8, 1), 2.5);
    expect(pidError({ rhoStar: 0.8, mu: 0 }, 0.5, 1)).toBe(pidError({ rhoStar: 0.8, mu: 0 }, 0.5, 0));
    close(pidError({ rhoStar: 0.8, mu: 1 }, 0.5, 1), 1.3);
    close(pidError({ rhoStar: 0.8, mu: 1 }, 0, 1), 1.8);
  });

  it('reproduces TestComputePIDOutput', () => {
    const t = pidTerms({ kp: 1, ki: 0, kd: 0 }, 0.3, 0, 0);
    [t.control, t.p, t.i, t.d].forEach((value, index) => close(value, [0.3, 0.3, 0, 0][index]!));
    const i = pidTerms({ kp: 0, ki: 0.5, kd: 0 }, 0, 2, 0);
    close(i.control, 1);
    close(i.i, 1);
    const d = pidTerms({ kp: 0, ki: 0, kd: 1 }, 0.5, 0, 0.3);
    close(d.control, 0.2);
    close(d.d, 0.2);
    close(pidTerms({ kp: 1, ki: 0.5, kd: 0.2 }, 0.4, 1, 0.2).control, 0.4 + 0.5 + 0.2 * 0.2);
    expect(pidTerms({ kp: 1, ki: 1, kd: 1 }, 0, 0, 0).control).toBe(0);
    close(pidTerms({ kp: 1, ki: 0, kd: 0 }, -0.5, 0, 0).control, -0.5);
  });
});

describe('origin: classify_quadrant (Eq 7) and the routed beta (test_quadrant.py)', () => {
  it('classifies with >= at both thresholds', () => {
    const th = { deltaJs: 0.05, rhoStar: 0.8 };
    const cases: [number, number, string][] = [[0.01, 0.3, 'STUCK'], [0.1, 0.3, 'CHAOTIC'], [0.01, 0.9, 'CONVERGED'], [0.1, 0.9, 'HEALTHY'], [0.05, 0.3, 'CHAOTIC'], [0.01, 0.8, 'CONVERGED'], [0.05, 0.8, 'HEALTHY']];
    for (const [js, rho, quadrant] of cases) expect(quadrantOf(js, rho, th)).toBe(quadrant);
  });

  it('STUCK adds delta_beta with no decay, capped at 1', () => {
    const stuck = controller(config(), 0.5).step(0.3, 0.01);
    expect(stuck.quadrant).toBe('STUCK');
    close(stuck.nextBeta, 0.6);
    expect(controller(config({ deltaBeta: 0.2 }), 0.95).step(0.3, 0.01).nextBeta).toBe(1);
  });

  it('HEALTHY and CONVERGED decay beta by gamma_beta: 0.8 * 0.9 = 0.72', () => {
    const healthy = controller(config(), 0.8).step(0.9, 0.1);
    expect(healthy.quadrant).toBe('HEALTHY');
    close(healthy.nextBeta, 0.72);
    const converged = controller(config(), 0.8).step(0.9, 0.01);
    expect(converged.quadrant).toBe('CONVERGED');
    close(converged.nextBeta, 0.72);
  });

  it('CHAOTIC adds u_t with no gamma_beta', () => {
    // Defaults: e = 0.5, sum 0.5, D = 0.5 - 0; u = 0.075 + 0.005 + 0.015 = 0.095 -> 0.595 (origin: > 0.5).
    const chaotic = controller(config(), 0.5).step(0.3, 0.1);
    expect(chaotic.quadrant).toBe('CHAOTIC');
    close(chaotic.nextBeta, 0.595);
    // test_chaotic_no_gamma_momentum: Kp 0.3 only, gamma 0.5: u = 0.3*0.5 = 0.15 -> 0.65.
    close(controller(config({ kp: 0.3, ki: 0, kd: 0, gammaBeta: 0.5 }), 0.5).step(0.3, 0.1).nextBeta, 0.65);
  });
});

describe('origin: PIDController over rounds (test_controller.py)', () => {
  const c = (over: Partial<PidConfig> = {}) => config({ kp: 0.3, ki: 0.05, kd: 0.1, ...over });

  it('first step: s_t = 0, e = 0.1; CHAOTIC so beta = 0.5 + (0.03 + 0.005 + 0.01)', () => {
    const r = controller(c(), 0.5).step(0.7, 0.1);
    close(r.error, 0.1);
    close(r.nextBeta, 0.545);
  });

  it('keeps beta in [0, 1] with Kp = 5 and a 100-round error of 0.8', () => {
    expect(controller(c({ kp: 5, ki: 0, kd: 0 }), 0.9).step(0).nextBeta).toBe(1);
    const ctrl = controller(c({ kp: 0, ki: 0.1, kd: 0, gammaBeta: 0, mu: 0 }), 0.5);
    let last: PidResult | undefined;
    for (let t = 0; t < 100; t += 1) last = ctrl.step(0);
    expect(last!.nextBeta).toBe(1);
    // The origin's anti-windup: the sum stops at 10, not 100 * 0.8 = 80.
    expect(ctrl.state.integral).toBe(PID_INTEGRAL_LIMIT);
    close(last!.control, 0.1 * 10);
  });

  it('accumulates the integral: 0.1 + 0.1 = 0.2', () => {
    const ctrl = controller(c(), 0.5);
    ctrl.step(0.7);
    ctrl.step(0.7);
    close(ctrl.state.integral, 0.2);
  });

  it('converging simulation: |e| falls; STUCK raises beta to 1.0, then CONVERGED decays it to 0.9', () => {
    const results = run(c(), 0.5, [0.5, 0.6, 0.7, 0.75, 0.78, 0.8].map((rho) => ({ rho })));
    expect(Math.abs(results.at(-1)!.error)).toBeLessThan(Math.abs(results[0]!.error));
    [0.6, 0.7, 0.8, 0.9, 1, 0.9].forEach((beta, index) => close(results[index]!.nextBeta, beta));
  });

  it('first-step derivative kick: D = Kd * e_1 (e_prev = 0), then Kd * (e_2 - e_1)', () => {
    const cfg = c({ kp: 0, ki: 0, kd: 1, gammaBeta: 0, mu: 0 });
    const ctrl = controller(cfg, 0.5);
    close(ctrl.step(0.5).control, 0.3);
    close(ctrl.step(0.6).control, -0.1);
    const kick = controller(c({ kp: 0, ki: 0, kd: 10, gammaBeta: 0, mu: 0 }), 0.5).step(0);
    close(kick.control, 8);
    close(kick.nextBeta, 0.6);
    expect(controller(cfg, 0.5).step(0.8).derivative).toBe(0);
  });

  it('integral windup: 10 x 0.3 = 3; I-term 0.1 * 1.8 in round 6; 1.5 - 5 x 0.2 = 0.5', () => {
    const cfg = c({ kp: 0, ki: 0.1, kd: 0, gammaBeta: 0, mu: 0 });
    const ten = controller(cfg, 0.5);
    for (let t = 0; t < 10; t += 1) ten.step(0.5);
    close(ten.state.integral, 3);
    close(run(cfg, 0.5, Array.from({ length: 6 }, () => ({ rho: 0.5 }))).at(-1)!.control, 0.18);
    const back = controller(cfg, 0.5);
    for (let t = 0; t < 5; t += 1) back.step(0.5);
    close(back.state.integral, 1.5);
    for (let t = 0; t < 5; t += 1) back.step(1);
    close(back.state.integral, 0.5);
  });

  it('sycophancy-inflated error 1.3 keeps u and beta finite (both rounds CHAOTIC)', () => {
    // Gains 0.1/0.01/0.05. Round 1: e 0.3, u = 0.03 + 0.003 + 0.015 = 0.048 -> 0.548.
    // Round 2 (s_t = 1): e 1.3, sum 1.6, D 1.0: u = 0.13 + 0.016 + 0.05 = 0.196 -> 0.744.
    const [r0, r1] = run(c({ kp: 0.1, ki: 0.01, kd: 0.05 }), 0.5, [{ rho: 0.5, js: 0.4 }, { rho: 0.5, js: 0.1, s: 1 }]);
    close(r0!.nextBeta, 0.548);
    close(r1!.error, 1.3);
    close(r1!.control, 0.196);
    close(r1!.nextBeta, 0.744);
  });
});

describe('origin: quadrant transitions (test_pid_quadrant_transitions.py, mu = 0)', () => {
  const cfg = config({ mu: 0 });
  const at = (js: number, rho: number) => ({ js, rho });

  it('pins each two-round transition the origin pins', () => {
    const [a0, a1] = run(cfg, 0.5, [at(0.01, 0.3), at(0.1, 0.9)]);
    close(a0!.nextBeta, 0.6);
    close(a1!.nextBeta, 0.54);
    // STUCK 0.4 -> 0.5; CHAOTIC: e 0.5, sum 1.0, D 0: u = 0.075 + 0.01 = 0.085 -> 0.585.
    const [b0, b1] = run(cfg, 0.4, [at(0.01, 0.3), at(0.1, 0.3)]);
    close(b0!.nextBeta, 0.5);
    expect(b1!.quadrant).toBe('CHAOTIC');
    close(b1!.nextBeta, 0.585);
    const [c0, c1] = run(cfg, 0.5, [at(0.1, 0.3), at(0.01, 0.9)]);
    close(c1!.nextBeta, c0!.nextBeta * 0.9);
    close(c1!.nextBeta, 0.5355);
    const [d0, d1] = run(cfg, 0.5, [at(0.1, 0.9), at(0.01, 0.3)]);
    close(d0!.nextBeta, 0.45);
    close(d1!.nextBeta, 0.55);
  });

  it('repeats: CONVERGED decays by 0.8 each round; STUCK climbs by 0.15 to 1', () => {
    const decays = run(config({ mu: 0, gammaBeta: 0.8 }), 0.5, Array.from({ length: 5 }, () => at(0.01, 0.9)));
    [0.4, 0.32, 0.256, 0.2048, 0.16384].forEach((beta, index) => close(decays[index]!.nextBeta, beta));
    expect(run(config({ mu: 0, deltaBeta: 0.15 }), 0.3, Array.from({ length: 10 }, () => at(0.01, 0.3))).at(-1)!.nextBeta).toBe(1);
  });

  it('sycophancy: e = 0.1 + 1 = 1.1 in CHAOTIC; STUCK still adds delta_beta (0.519 -> 0.619)', () => {
    const syc = config({ mu: 1 });
    const [, r1] = run(syc, 0.5, [{ rho: 0.7, js: 0.3 }, { rho: 0.7, js: 0.08, s: 1 }]);
    expect(r1!.quadrant).toBe('CHAOTIC');
    close(r1!.error, 1.1);
    const [s0, s1] = run(syc, 0.5, [{ rho: 0.7, js: 0.3 }, { rho: 0.7, js: 0.02, s: 1 }]);
    close(s0!.nextBeta, 0.519);
    expect(s1!.quadrant).toBe('STUCK');
    close(s1!.nextBeta, 0.619);
  });

  it('accumulates the integral across quadrants: 0.5 + 0.4 - 0.1 = 0.8', () => {
    const ctrl = controller(cfg, 0.5);
    ctrl.step(0.3, 0.01);
    ctrl.step(0.4, 0.1);
    ctrl.step(0.9, 0.1);
    close(ctrl.state.integral, 0.8);
  });

  it('classifies all sixteen transitions and keeps beta in [0, 1]', () => {
    const points = { STUCK: at(0.01, 0.3), CHAOTIC: at(0.1, 0.3), CONVERGED: at(0.01, 0.9), HEALTHY: at(0.1, 0.9) };
    for (const [from, p] of Object.entries(points)) {
      for (const [to, q] of Object.entries(points)) {
        const [r0, r1] = run(cfg, 0.5, [p, q]);
        expect([r0!.quadrant, r1!.quadrant]).toEqual([from, to]);
        expect(r1!.nextBeta).toBeGreaterThanOrEqual(0);
        expect(r1!.nextBeta).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe('origin: check_stability (test_pid_controller_behavior.py; rho* = 1, mu = 0 there)', () => {
  const stable = (kp: number, ki: number, kd: number, tMax: number, gammaBeta: number) => pidStabilityCheck(config({ kp, ki, kd, gammaBeta, rhoStar: 1, mu: 0 }), tMax).stable;
  it('gives the origin verdicts', () => {
    expect(stable(0.05, 0.005, 0.01, 20, 0.9)).toBe(true);
    expect(stable(2, 1, 1, 20, 0.9)).toBe(false);
    expect(stable(0.15, 0.01, 0.03, 20, 0.9)).toBe(true);
    expect(stable(50, 10, 20, 100, 0)).toBe(true);
    expect(stable(0.3, 0.05, 0.1, 5, 0.9)).toBe(true);
    expect(stable(0.3, 0.05, 0.1, 100, 0.9)).toBe(false);
  });
});

describe('hand-computed: three or four rounds in one quadrant, defaults (Kp .15, Ki .01, Kd .03, gamma .9, mu 1)', () => {
  const v1 = PidConfig.parse({ variant: 'parley-v1' });
  const pin = (results: PidResult[], field: 'control' | 'nextBeta', expected: number[]) => expected.forEach((value, index) => close(results[index]![field], value));

  it('STUCK (JS .01; rho .5, .6, .7; beta0 .75): beta .85, .95, 1 whatever u says', () => {
    // e .3, .2, .1; sums .3, .5, .6; D .3 (e_prev 0), -.1, -.1
    // u = .045+.003+.009 = .057; .03+.005-.003 = .032; .015+.006-.003 = .018
    const rounds = [0.5, 0.6, 0.7].map((rho) => ({ rho, js: 0.01 }));
    const results = run(base, 0.75, rounds);
    pin(results, 'control', [0.057, 0.032, 0.018]);
    pin(results, 'nextBeta', [0.85, 0.95, 1]);
    expect(results.map((r) => r.nextTone)).toEqual(['adversarial', 'adversarial', 'adversarial']);
    // parley-v1: the same beta; only D in round 1 differs (0, so u = .048).
    pin(run(v1, 0.75, rounds), 'control', [0.048, 0.032, 0.018]);
  });

  it('CHAOTIC (JS .2; rho .5, .6, .5 with s_t = 1 in round 3): beta .557, .589, .835', () => {
    // Rounds 1-2 as STUCK: u .057, .032. Round 3: e = .3 + 1 = 1.3, sum 1.8, D 1.1: u = .195 + .018 + .033 = .246
    // beta = clip(beta + u): .5 + .057, + .032, + .246
    const rounds = [{ rho: 0.5, js: 0.2 }, { rho: 0.6, js: 0.2 }, { rho: 0.5, js: 0.2, s: 1 }];
    const results = run(base, 0.5, rounds);
    pin(results, 'control', [0.057, 0.032, 0.246]);
    pin(results, 'nextBeta', [0.557, 0.589, 0.835]);
    expect(results.at(-1)!.nextTone).toBe('adversarial');
    pin(run(v1, 0.5, rounds), 'nextBeta', [0.5, 0.5, 0.5]);
  });

  it('CONVERGED (JS .01; rho .9, .85, .8; beta0 .8): beta .72, .648, .5832 though u -> 0', () => {
    // e -.1, -.05, 0; sums -.1, -.15, -.15; D -.1, .05, .05
    // u = -.015-.001-.003 = -.019; -.0075-.0015+.0015 = -.0075; 0-.0015+.0015 = 0
    const rounds = [0.9, 0.85, 0.8].map((rho) => ({ rho, js: 0.01 }));
    const results = run(base, 0.8, rounds);
    pin(results, 'control', [-0.019, -0.0075, 0]);
    pin(results, 'nextBeta', [0.72, 0.648, 0.5832]);
    expect(results.at(-1)!.nextTone).toBe('balanced');
    pin(run(v1, 0.8, rounds), 'nextBeta', [0.7, 0.6, 0.5]);
  });

  it('HEALTHY (JS .2; rho .9, .95, 1, 1): beta .45, .405, .3645, .32805 (collaborative); Eq 14 recorded apart', () => {
    // e -.1, -.15, -.2, -.2; sums -.1, -.25, -.45, -.65; D -.1, -.05, -.05, 0
    // u = -.019; -.0225-.0025-.0015 = -.0265; -.03-.0045-.0015 = -.036; -.03-.0065 = -.0365
    const rounds = [0.9, 0.95, 1, 1].map((rho) => ({ rho, js: 0.2 }));
    const results = run(base, 0.5, rounds);
    pin(results, 'control', [-0.019, -0.0265, -0.036, -0.0365]);
    pin(results, 'nextBeta', [0.45, 0.405, 0.3645, 0.32805]);
    close(results[0]!.betaPid, 0.431);
    expect(results.map((r) => r.nextTone)).toEqual(['balanced', 'balanced', 'balanced', 'collaborative']);
    // parley-v1 follows Eq 14: .45 - .016 = .434 (D = 0 in round 1); .3906 - .0265 = .3641
    pin(run(v1, 0.5, rounds).slice(0, 2), 'nextBeta', [0.434, 0.3641]);
  });

  it('parley-v1 keeps the sum unbounded (100 x .8 = 80)', () => {
    const ctrl = controller(PidConfig.parse({ variant: 'parley-v1', mu: 0 }), 0.5);
    for (let t = 0; t < 100; t += 1) ctrl.step(0);
    close(ctrl.state.integral, 80);
  });
});

describe('the variant option', () => {
  it('defaults to raudit, accepts parley-v1 through the debate config, and refuses other names', () => {
    expect(PidConfig.parse({}).variant).toBe('raudit');
    const parsed = parseDebateConfig({ question: 'q', agents: [{ model: 'openai:a' }, { model: 'openai:b' }], crit: { judge: 'openai:j' }, pid: { variant: 'parley-v1' } });
    expect(parsed.pid!.variant).toBe('parley-v1');
    expect(() => PidConfig.parse({ variant: 'origin' })).toThrow();
  });
});
