import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { entropy, generalizedJs, jaccard, kl, meanPairwiseJaccard, recalibrateConfidence } from '../../../protocols/debate/math.js';
import { pidStabilityCheck, pidStep, quadrantOf, toneFor } from '../../../protocols/debate/pid.js';
import { parseDebateConfig } from '../../../protocols/debate/run.js';
import { PidConfig } from '../../../schemas/debate.js';

const close = (value: number, expected: number) => expect(value).toBeCloseTo(expected, 6);

describe('generalized Jensen-Shannon divergence (bits)', () => {
  it('is 1 bit for two disjoint one-hot distributions', () => {
    // M = {a: .5, b: .5}; KL(onehot || M) = log2(1 / .5) = 1 for both; mean = 1.
    close(generalizedJs([{ a: 1 }, { b: 1 }]), 1);
  });
  it('is 0 for identical distributions', () => {
    close(generalizedJs([{ a: 0.3, b: 0.7 }, { a: 0.3, b: 0.7 }, { a: 0.3, b: 0.7 }]), 0);
  });
  it('matches a hand-worked partial overlap', () => {
    // P1 = {a:1}, P2 = {a:.5, b:.5}; M = {a:.75, b:.25}
    // KL(P1||M) = log2(1/.75) = 0.4150375
    // KL(P2||M) = .5*log2(.5/.75) + .5*log2(.5/.25) = .5*(-0.5849625) + .5*1 = 0.2075187
    // JS = (0.4150375 + 0.2075187) / 2 = 0.3112781
    close(generalizedJs([{ a: 1 }, { a: 0.5, b: 0.5 }]), 0.3112781);
  });
  it('is log2(3) for three disjoint one-hots', () => {
    // M = 1/3 each; every KL = log2(3) = 1.5849625
    close(generalizedJs([{ a: 1 }, { b: 1 }, { c: 1 }]), Math.log2(3));
  });
  it('stays within [0, log2 n] for random distributions', () => {
    const dist = fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }).map((weights) => {
      const total = weights.reduce((sum, w) => sum + w, 0);
      return { a: weights[0]! / total, b: weights[1]! / total, c: weights[2]! / total };
    });
    fc.assert(
      fc.property(fc.array(dist, { minLength: 2, maxLength: 6 }), (distributions) => {
        const js = generalizedJs(distributions);
        return js >= -1e-12 && js <= Math.log2(distributions.length) + 1e-9;
      }),
    );
  });
  it('KL is infinite when P has mass where Q has none', () => {
    expect(kl({ a: 1 }, { b: 1 })).toBe(Infinity);
  });
});

describe('entropy (bits)', () => {
  it('is 2 bits for a uniform distribution over four options', () => close(entropy({ a: 0.25, b: 0.25, c: 0.25, d: 0.25 }), 2));
  it('is 1.5 bits for {.5, .25, .25}', () => {
    // -(.5*log2 .5 + 2 * .25*log2 .25) = .5 + 1 = 1.5
    close(entropy({ a: 0.5, b: 0.25, c: 0.25 }), 1.5);
  });
  it('is 0 for a certain answer', () => close(entropy({ a: 1 }), 0));
});

describe('evidence overlap (Jaccard)', () => {
  it('computes |A n B| / |A u B|', () => {
    close(jaccard(new Set(['e1', 'e2']), new Set(['e2', 'e3'])), 1 / 3);
    close(jaccard(new Set(['e1']), new Set(['e1'])), 1);
    close(jaccard(new Set(), new Set()), 0);
  });
  it('averages over all unordered pairs', () => {
    // pairs: (1,2)=1/3, (1,3)=1/2, (1,4)=0, (2,3)=0, (2,4)=0, (3,4)=0 -> (5/6)/6 = 5/36
    const sets = [new Set(['e1', 'e2']), new Set(['e2', 'e3']), new Set(['e1']), new Set(['e4'])];
    close(meanPairwiseJaccard(sets), 5 / 36);
  });
});

describe('ReConcile confidence recalibration', () => {
  it('maps the bands', () => {
    expect([0.5, 0.6, 0.7, 0.85, 0.95, 1].map(recalibrateConfidence)).toEqual([0.1, 0.1, 0.3, 0.5, 0.8, 1]);
  });
});

describe('PID controller on contentiousness', () => {
  const defaults = PidConfig.parse({});
  const v1 = PidConfig.parse({ variant: 'parley-v1' });

  it('updates by the worked example and moves beta by u_t when CHAOTIC', () => {
    // e = (0.8 - 0.5) + 1.0 * 1 = 1.3; sum e = 0.2 + 1.3 = 1.5; de = 1.3 - 0.1 = 1.2
    // u = 0.15*1.3 + 0.01*1.5 + 0.03*1.2 = 0.195 + 0.015 + 0.036 = 0.246
    // beta_pid = clip(0.9*0.5 + 0.246) = 0.696; JS 0.2 >= 0.05 and rho 0.5 < 0.8 -> CHAOTIC -> clip(0.5 + 0.246) = 0.746
    const step = pidStep({ beta: 0.5, integral: 0.2, previousError: 0.1 }, { rhoBar: 0.5, sycophancy: 1, js: 0.2 }, defaults);
    close(step.error, 1.3);
    close(step.integral, 1.5);
    close(step.derivative, 1.2);
    close(step.control, 0.246);
    close(step.betaPid, 0.696);
    expect(step.quadrant).toBe('CHAOTIC');
    close(step.nextBeta, 0.746);
    expect(step.nextTone).toBe('adversarial');
    // parley-v1 held beta in CHAOTIC.
    close(pidStep({ beta: 0.5, integral: 0.2, previousError: 0.1 }, { rhoBar: 0.5, sycophancy: 1, js: 0.2 }, v1).nextBeta, 0.5);
  });

  it('decays beta by gamma_beta when HEALTHY', () => {
    // e = 0.8 - 0.9 = -0.1; sum = -0.1; e_prev = 0 in round 1 -> de = -0.1; u = -0.015 - 0.001 - 0.003 = -0.019
    // raudit: beta = 0.9*0.5 = 0.45. parley-v1: de = 0, u = -0.016, beta = 0.9*0.5 - 0.016 = 0.434
    const step = pidStep({ beta: 0.5, integral: 0 }, { rhoBar: 0.9, sycophancy: 0, js: 0.2 }, defaults);
    expect(step.quadrant).toBe('HEALTHY');
    close(step.derivative, -0.1);
    close(step.control, -0.019);
    close(step.nextBeta, 0.45);
    close(pidStep({ beta: 0.5, integral: 0 }, { rhoBar: 0.9, sycophancy: 0, js: 0.2 }, v1).nextBeta, 0.434);
  });

  it('raises beta when STUCK and decays it when CONVERGED', () => {
    close(pidStep({ beta: 0.6, integral: 0 }, { rhoBar: 0.5, sycophancy: 0, js: 0 }, defaults).nextBeta, 0.7);
    close(pidStep({ beta: 0.6, integral: 0 }, { rhoBar: 0.9, sycophancy: 0, js: 0 }, defaults).nextBeta, 0.54);
    close(pidStep({ beta: 0.6, integral: 0 }, { rhoBar: 0.9, sycophancy: 0, js: 0 }, v1).nextBeta, 0.5);
    close(pidStep({ beta: 0.95, integral: 0 }, { rhoBar: 0.5, sycophancy: 0, js: 0 }, defaults).nextBeta, 1);
  });

  it('routes quadrants and tones by the thresholds', () => {
    expect(quadrantOf(0.049, 0.79, defaults)).toBe('STUCK');
    expect(quadrantOf(0.05, 0.8, defaults)).toBe('HEALTHY');
    expect([0.67, 0.66, 0.33, 0.32].map(toneFor)).toEqual(['adversarial', 'balanced', 'balanced', 'collaborative']);
  });

  it('passes the stability precheck with the defaults and refuses unstable gains', () => {
    // e_max = max(.8, .2) + 1 = 1.8; 1.8 * (0.15 + 20*0.01 + 2*0.03) = 1.8 * 0.41 = 0.738 < 1/0.9
    const check = pidStabilityCheck(defaults, 20);
    close(check.lhs, 0.738);
    expect(check.stable).toBe(true);
    // Kp = 0.5: 1.8 * (0.5 + 0.2 + 0.06) = 1.368 >= 1.111
    expect(pidStabilityCheck({ ...defaults, kp: 0.5 }, 20).stable).toBe(false);
    expect(() =>
      parseDebateConfig({ question: 'q', agents: [{ model: 'openai:a' }, { model: 'openai:b' }], crit: { judge: 'openai:j' }, pid: { kp: 0.5 } }),
    ).toThrow(/stability precheck/);
  });

  it('refuses PID without CRIT', () => {
    expect(() => parseDebateConfig({ question: 'q', agents: [{ model: 'openai:a' }, { model: 'openai:b' }], pid: {} })).toThrow(/CRIT/);
  });
});
