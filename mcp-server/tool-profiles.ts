import { UserFacingError } from '../schemas/user-facing-error.js';

/** The groups of tools (and the resources that go with them) a profile switches on. */
export type ToolGroup = 'argumentation' | 'runs';

export const TOOL_PROFILE_ENV = 'PARLEY_TOOLS';

/** Each profile, in the order the README lists them: a user who only deliberates need not pay for the run tools on every turn. */
export const TOOL_PROFILES: Record<string, readonly ToolGroup[]> = {
  all: ['argumentation', 'runs'],
  argumentation: ['argumentation'],
  runs: ['runs'],
};

/**
 * The groups `PARLEY_TOOLS` asks for: one profile or a comma list of them (`argumentation,runs`);
 * unset or empty means `all`. An unknown name is refused, never ignored: a typo would silently hide tools.
 */
export function toolGroups(value: string | undefined): ReadonlySet<ToolGroup> {
  const names = (value ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) return new Set(TOOL_PROFILES.all);
  const unknown = names.filter((name) => !Object.hasOwn(TOOL_PROFILES, name));
  if (unknown.length > 0) {
    throw new UserFacingError(
      `${TOOL_PROFILE_ENV}=${value} names no profile (${unknown.join(', ')}): use one of ${Object.keys(TOOL_PROFILES).join(', ')}, or a comma list of them (default: all)`,
      { code: 'unknown-tool-profile' },
    );
  }
  return new Set(names.flatMap((name) => TOOL_PROFILES[name] ?? []));
}

/** Why the environment's `PARLEY_TOOLS` cannot start a server, or undefined when it can. */
export function checkToolProfile(env: NodeJS.ProcessEnv): string | undefined {
  try {
    toolGroups(env[TOOL_PROFILE_ENV]);
    return undefined;
  } catch (error) {
    if (error instanceof UserFacingError) return error.message;
    throw error;
  }
}
