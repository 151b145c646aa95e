import type { ProviderPreset } from './presets.js';

/**
 * The OpenAI-compatible endpoints PARLEY_API_KEY was configured for: base URLs separated by commas
 * or spaces. A URL that arrives in a model spec (a tool argument, a config) gets the key only when
 * it lies under one of them.
 */
export const KEY_ENDPOINTS_ENV = 'PARLEY_API_BASE_URL';

export interface ScopedKey {
  apiKey?: string;
  /** Why a key the environment holds was not sent (for the hint on a 401). */
  withheld?: string;
}

/**
 * The one rule for which key goes where: a key the caller passed in code, or a preset's key to its
 * own base URL (or one the caller set in code), or the spec URL's key when the user configured that
 * endpoint. Never a key to a URL that only a spec named.
 */
export function scopedKey(preset: ProviderPreset, target: { specUrl?: string }, env: NodeJS.ProcessEnv, explicitKey?: string): ScopedKey {
  if (explicitKey) return { apiKey: explicitKey };
  const key = preset.keyEnv ? env[preset.keyEnv] : undefined;
  if (!key) return {};
  if (target.specUrl === undefined || isConfiguredEndpoint(target.specUrl, env[KEY_ENDPOINTS_ENV])) return { apiKey: key };
  return { withheld: `${preset.keyEnv} is sent only to the endpoints listed in ${KEY_ENDPOINTS_ENV}, and ${new URL(target.specUrl).origin} is not one` };
}

export function isConfiguredEndpoint(url: string, configured: string | undefined): boolean {
  const target = parseUrl(url);
  if (!target) return false;
  return (configured ?? '')
    .split(/[\s,]+/)
    .map(parseUrl)
    .some((endpoint) => endpoint !== undefined && endpoint.origin === target.origin && underPath(endpoint.pathname, target.pathname));
}

function parseUrl(text: string): URL | undefined {
  if (!text) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function underPath(base: string, path: string): boolean {
  const trimmedBase = base.replace(/\/+$/, '');
  const trimmedPath = path.replace(/\/+$/, '');
  return trimmedPath === trimmedBase || trimmedPath.startsWith(`${trimmedBase}/`);
}
