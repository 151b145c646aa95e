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
  /** clip(gamma_beta * beta_t + u_t, 0, 1): the plain PID update. */
  betaPid: number;
  quadrant: Quadrant;
  /** beta_{t+1} after quadrant routing. */
  nextBeta: number;
  nextTone: Tone;
}

const clip01 = (value: number): number => Math.min(1, Math.max(0, value));

export function quadrantOf(js: number, rhoBar: number, config: Pick<PidConfig, 'deltaJs' | 'rhoStar'>): Quadrant {
  const diverse = js >= config.deltaJs;
  const good = rhoBar >= config.rhoStar;
  if (!diverse && !good) return 'STUCK';
  if (diverse && !good) return 'CHAOTIC';
  if (!diverse && good) return 'CONVERGED';
  return 'HEALTHY';
}

/**
 * One controller step. The quadrant decides which update applies (our reading of the routing):
 * STUCK raises beta by delta_beta, CHAOTIC holds it, CONVERGED lowers it by delta_beta, HEALTHY
 * takes the PID update, whose gamma_beta factor is the decay. The integral always accumulates.
 */
export function pidStep(state: PidState, inputs: PidInputs, config: PidConfig): PidResult {
  const error = config.rhoStar - inputs.rhoBar + config.mu * inputs.sycophancy;
  const integral = state.integral + error;
  const derivative = state.previousError === undefined ? 0 : error - state.previousError;
  const control = config.kp * error + config.ki * integral + config.kd * derivative;
  const betaPid = clip01(config.gammaBeta * state.beta + control);
  const quadrant = quadrantOf(inputs.js, inputs.rhoBar, config);
  const nextBeta =
    quadrant === 'STUCK'
      ? clip01(state.beta + config.deltaBeta)
      : quadrant === 'CHAOTIC'
        ? state.beta
        : quadrant === 'CONVERGED'
          ? clip01(state.beta - config.deltaBeta)
          : betaPid;
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
