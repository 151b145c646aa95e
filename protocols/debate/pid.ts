import type { PidConfig } from '../../schemas/debate.js';

export type Tone = 'adversarial' | 'balanced' | 'collaborative';
export type Quadrant = 'STUCK' | 'CHAOTIC' | 'CONVERGED' | 'HEALTHY';

export function toneFor(beta: number): Tone {
  if (beta >= 0.67) return 'adversarial';
  if (beta >= 0.33) return 'balanced';
  return 'collaborative';
}

export interface PidState {
  beta: number;
  integral: number;
  previousError?: number;
}

export interface PidInputs {
  rhoBar: number;
  /** Sycophancy signal s_t (0 or 1). */
  sycophancy: number;
  js: number;
}

export interface PidResult {
  error: number;
  integral: number;
  derivative: number;
  control: number;
  /** clip(gamma_beta * beta_t + u_t, 0, 1): the plain PID update (RAudit Eq 14), kept for comparison. */
  betaPid: number;
  quadrant: Quadrant;
  /** beta_{t+1} after quadrant routing. */
  nextBeta: number;
  nextTone: Tone;
}

const clip01 = (value: number): number => Math.min(1, Math.max(0, value));

/** The origin's anti-windup bound on the error sum (cs372research eval/PID/controller.py, _INTEGRAL_MAX). */
export const PID_INTEGRAL_LIMIT = 10;

/** RAudit Eq 7: div = 1[JS >= delta_JS], qual = 1[rho_bar >= rho*]; Table 1 names the four regimes. */
export function quadrantOf(js: number, rhoBar: number, config: Pick<PidConfig, 'deltaJs' | 'rhoStar'>): Quadrant {
  const diverse = js >= config.deltaJs;
  const good = rhoBar >= config.rhoStar;
  if (!diverse && !good) return 'STUCK';
  if (diverse && !good) return 'CHAOTIC';
  if (!diverse && good) return 'CONVERGED';
  return 'HEALTHY';
}

/**
 * beta_{t+1} as the origin routes it (RAudit Algorithm 1 L19-29, Table 1, as cs372research
 * eval/PID/controller.py reads them):
 *   STUCK      beta <- min(beta + delta_beta, 1)      (L22, EXPLORE; no decay after it)
 *   CHAOTIC    beta <- clip(beta + u_t, 0, 1)         (L24, REFINE read as PID-directed, no gamma_beta)
 *   CONVERGED  beta <- clip(gamma_beta * beta, 0, 1)  (L29, CONSOLIDATE)
 *   HEALTHY    beta <- clip(gamma_beta * beta, 0, 1)  (L29, natural decay)
 */
function rauditBeta(quadrant: Quadrant, beta: number, control: number, config: PidConfig): number {
  if (quadrant === 'STUCK') return Math.min(beta + config.deltaBeta, 1);
  if (quadrant === 'CHAOTIC') return clip01(beta + control);
  return clip01(config.gammaBeta * beta);
}

/** parley-v1, parley's first reading of Table 1: STUCK +delta_beta, CHAOTIC hold, CONVERGED -delta_beta, HEALTHY Eq 14. */
function parleyV1Beta(quadrant: Quadrant, beta: number, betaPid: number, config: PidConfig): number {
  if (quadrant === 'STUCK') return clip01(beta + config.deltaBeta);
  if (quadrant === 'CHAOTIC') return beta;
  if (quadrant === 'CONVERGED') return clip01(beta - config.deltaBeta);
  return betaPid;
}

/** RAudit Eq 5: e_t = (rho* - rho_bar) + mu * s_t. */
export function pidError(config: Pick<PidConfig, 'rhoStar' | 'mu'>, rhoBar: number, sycophancy: number): number {
  return config.rhoStar - rhoBar + config.mu * sycophancy;
}

/** RAudit Eq 6: u_t = Kp e_t + Ki sum(e) + Kd (e_t - e_{t-1}), with its three terms. */
export function pidTerms(gains: Pick<PidConfig, 'kp' | 'ki' | 'kd'>, error: number, integral: number, previousError: number) {
  const p = gains.kp * error;
  const i = gains.ki * integral;
  const d = gains.kd * (error - previousError);
  return { control: p + i + d, p, i, d };
}

/**
 * One controller step; the integral accumulates in every quadrant. `raudit` (default) follows the
 * origin: e_{t-1} = 0 in the first round (so D = Kd e_1 there), the sum clamped to
 * +-PID_INTEGRAL_LIMIT, and rauditBeta's routing. `parley-v1`: D = 0 in the first round, an
 * unbounded sum, and parleyV1Beta's routing.
 */
export function pidStep(state: PidState, inputs: PidInputs, config: PidConfig): PidResult {
  const origin = config.variant !== 'parley-v1';
  const error = pidError(config, inputs.rhoBar, inputs.sycophancy);
  const sum = state.integral + error;
  const integral = origin ? Math.min(PID_INTEGRAL_LIMIT, Math.max(-PID_INTEGRAL_LIMIT, sum)) : sum;
  const previousError = state.previousError ?? (origin ? 0 : error);
  const derivative = error - previousError;
  const { control } = pidTerms(config, error, integral, previousError);
  const betaPid = clip01(config.gammaBeta * state.beta + control);
  const quadrant = quadrantOf(inputs.js, inputs.rhoBar, config);
  const nextBeta = origin ? rauditBeta(quadrant, state.beta, control, config) : parleyV1Beta(quadrant, state.beta, betaPid, config);
  return { error, integral, derivative, control, betaPid, quadrant, nextBeta, nextTone: toneFor(nextBeta) };
}

/**
 * The stability precheck e_max * (Kp + T_max * Ki + 2 * Kd) < 1 / gamma_beta, with
 * e_max = max(rho_star, 1 - rho_star) + mu (rho_bar lies in [0,1] and s_t in {0,1}).
 */
export function pidStabilityCheck(config: PidConfig, tMax: number): { stable: boolean; lhs: number; rhs: number; eMax: number } {
  const eMax = Math.max(config.rhoStar, 1 - config.rhoStar) + config.mu;
  const lhs = eMax * (Math.abs(config.kp) + tMax * Math.abs(config.ki) + 2 * Math.abs(config.kd));
  const rhs = 1 / config.gammaBeta;
  return { stable: lhs < rhs, lhs, rhs, eMax };
}
