import type { DeliberationState } from '../schemas/argumentation.js';
import { UserFacingError } from '../schemas/user-facing-error.js';
import type { ModelRole, ReadinessCheck } from '../wrapper/readiness.js';
import { serverRefusal } from './deliberations.js';
import { ToolRefusal } from './tool-kit.js';

/** Checks the models a tool is about to call; throws a `model-not-ready` UserFacingError naming each one that cannot be used, with its fix. */
export type ModelChecker = (roles: readonly ModelRole[], what: string) => Promise<void>;

/**
 * The server's model checks: the CLI's own (wrapper/readiness.ts, `whyNotReady` unless `check` is
 * given), with passes remembered for READY_TTL_MS, so a healthy deliberation pays for one check.
 * Loaded on first use: the server's cold start stays free of the backends.
 */
export function modelChecker(env: NodeJS.ProcessEnv, check?: ReadinessCheck): ModelChecker {
  let remembering: ReadinessCheck | undefined;
  return async (roles, what) => {
    const readiness = await import('../wrapper/readiness.js');
    remembering ??= readiness.rememberingPasses(check ?? ((spec) => readiness.whyNotReady(spec, env)));
    await readiness.assertModelsReady(roles, { what, check: remembering });
  };
}

/**
 * The models checked before a tool waits on them; a model that cannot be used is a tool refusal, whose
 * legal next moves (for a deliberation) are the engine's.
 */
export async function refuseUnreadyModels(check: ModelChecker, roles: readonly ModelRole[], what: string, state?: DeliberationState): Promise<void> {
  try {
    await check(roles, what);
  } catch (error) {
    if (!(error instanceof UserFacingError) || error.code !== 'model-not-ready') throw error;
    throw state ? serverRefusal(state, error.message, 'model-not-ready') : new ToolRefusal(error.message, 'model-not-ready');
  }
}

/** The consultee as the consult will call it: the codex binary and login (the model is only an argument to it). */
export const CONSULTEE: ModelRole = { label: 'Codex (the consultee)', spec: 'codex' };
