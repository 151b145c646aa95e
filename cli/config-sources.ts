import type { Command } from 'commander';
import { isPlainObject } from '../protocols/canonical-json.js';
import { UserFacingError } from '../schemas/user-facing-error.js';
import { readJsonFile } from '../state/json-text.js';

/**
 * The one place a protocol command puts its configuration together: the flags the user gave, over
 * the --config file, over the protocol's defaults (which parsing the configuration fills in). A
 * flag counts only when it was given: commander's option defaults never reach a configuration,
 * so a file's `"rounds": 2` is not overwritten by the default of --rounds.
 */
export interface ConfigSources {
  /** The --config file and the keys it holds, when one was given. */
  file?: { path: string; config: Record<string, unknown> };
  /** The configuration keys the given flags set. */
  flags: Record<string, unknown>;
}

/** The options given on the command line (by attribute name, e.g. `critVariant`), not filled in by a default. */
export function givenOptions(command: Command): Set<string> {
  const names = command.options.map((option) => option.attributeName());
  return new Set(names.filter((name) => command.getOptionValueSource(name) === 'cli'));
}

/** The --config file: one JSON object; errors name the file (and line and column for bad JSON). */
export async function readConfigFile(path: string | undefined, what: string): Promise<ConfigSources['file']> {
  if (path === undefined) return undefined;
  const config = await readJsonFile(path);
  if (!isPlainObject(config)) throw new UserFacingError(`${path} holds no JSON object: a ${what} file is one object of ${what} keys ({"rounds": 2, ...})`, { code: 'invalid-config' });
  return { path, config };
}

/** The configuration to parse: the given flags over the file. */
export function mergedConfig(sources: ConfigSources): Record<string, unknown> {
  return { ...sources.file?.config, ...sources.flags };
}

/** For an error: the file a top-level key's value came from (a flag given for it wins, and needs no naming). */
export function sourceOfKey(sources: ConfigSources): (topKey: string | undefined) => string | undefined {
  return (topKey) => {
    const { file } = sources;
    if (!file || topKey === undefined || Object.hasOwn(sources.flags, topKey)) return undefined;
    return Object.hasOwn(file.config, topKey) ? file.path : undefined;
  };
}
