import { BackendError } from './backend.js';
import { CLI_PROVIDERS, PROVIDER_PRESETS, presetFor } from './presets.js';

/**
 * Model spec strings (`openai:gpt-4.1`, `openai-compatible:<url>#<model>`, `codex:<model>`...), parsed
 * without loading any backend, so configs can be checked before a run starts.
 */
export interface ModelSpec {
  provider: string;
  /** Empty for a CLI backend named without a model: the CLI's own default model is used. */
  model: string;
  baseUrl?: string;
}

const ACCEPTED_FORMS = [
  ...Object.keys(PROVIDER_PRESETS)
    .filter((provider) => provider !== 'openai-compatible')
    .map((provider) => `${provider}:<model>`),
  'openai-compatible:<http(s) url>#<model>',
  'codex[:<model>]',
  'claude[:<model>]',
].join(', ');

function badSpec(spec: string, why: string): BackendError {
  return new BackendError('bad-spec', `Model spec "${spec}" ${why}. Accepted forms: ${ACCEPTED_FORMS}.`);
}

/** Parses `provider:model` (the model may itself contain ':' and '/', e.g. `ollama:llama3.1:8b`). */
export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  if (trimmed.length === 0) throw badSpec(spec, 'is empty');
  const colon = trimmed.indexOf(':');
  const provider = colon === -1 ? trimmed : trimmed.slice(0, colon);
  const rest = colon === -1 ? '' : trimmed.slice(colon + 1);

  if ((CLI_PROVIDERS as readonly string[]).includes(provider)) {
    if (/\s/.test(rest)) throw badSpec(spec, 'has whitespace in the model name');
    return { provider, model: rest };
  }
  if (provider === 'openai-compatible') return parseCompatible(spec, rest);
  if (!presetFor(provider)) throw badSpec(spec, `names an unknown provider "${provider}"`);
  if (rest.length === 0) throw badSpec(spec, 'names no model');
  if (/\s/.test(rest)) throw badSpec(spec, 'has whitespace in the model name');
  return { provider, model: rest };
}

function parseCompatible(spec: string, rest: string): ModelSpec {
  const hash = rest.lastIndexOf('#');
  if (hash === -1) throw badSpec(spec, 'needs "#<model>" after the URL');
  const url = rest.slice(0, hash);
  const model = rest.slice(hash + 1);
  if (model.length === 0 || /\s/.test(model)) throw badSpec(spec, 'names no valid model after "#"');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badSpec(spec, `has an invalid URL "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badSpec(spec, 'needs an http or https URL');
  if (parsed.username || parsed.password) throw badSpec(spec, 'must not carry credentials in the URL (use PARLEY_API_KEY)');
  return { provider: 'openai-compatible', model, baseUrl: url.replace(/\/+$/, '') };
}
