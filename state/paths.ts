import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SafeId } from '../schemas/common.js';

/**
 * Where parley keeps its files: PARLEY_STATE_DIR, else $XDG_STATE_HOME/parley,
 * else ~/.local/state/parley. A Claude Code plugin sets PARLEY_STATE_DIR to
 * ${CLAUDE_PLUGIN_DATA} so plugin updates keep the state.
 */
export function stateHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PARLEY_STATE_DIR) return resolve(env.PARLEY_STATE_DIR);
  if (env.XDG_STATE_HOME) return join(resolve(env.XDG_STATE_HOME), 'parley');
  return join(homedir(), '.local', 'state', 'parley');
}

/** Throws a clear error for an id that is not safe to use in a file name. */
export function assertSafeId(id: string, what = 'id'): string {
  const parsed = SafeId.safeParse(id);
  if (!parsed.success) {
    throw new Error(`invalid ${what} ${JSON.stringify(id)}: ${parsed.error.issues[0]?.message ?? 'not a safe id'}`);
  }
  return id;
}

export const deliberationsDir = (home: string): string => join(home, 'deliberations');
export const runsDir = (home: string): string => join(home, 'runs');
export const runDir = (home: string, runId: string): string => join(runsDir(home), assertSafeId(runId, 'runId'));
