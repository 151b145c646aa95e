import { addUsage, zeroUsage, type Usage } from '../../schemas/common.js';
import type { Price, PriceTable } from '../../schemas/sweep.js';

/**
 * List prices in USD per million tokens (as published in 2025; they change, so a sweep file's
 * `prices` or `--prices` overrides any entry). Local servers cost nothing.
 */
export const DEFAULT_PRICES: PriceTable = {
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'claude-opus-4': { input: 15, cachedInput: 1.5, output: 75 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-3-5-haiku': { input: 0.8, cachedInput: 0.08, output: 4 },
  ollama: { input: 0, output: 0 },
  vllm: { input: 0, output: 0 },
  lmstudio: { input: 0, output: 0 },
};

/** The defaults, then each override on top (later wins). */
export function mergePrices(...tables: (PriceTable | undefined)[]): PriceTable {
  return Object.assign({}, DEFAULT_PRICES, ...tables.filter(Boolean));
}

/** The model name inside a spec: after `#` for a URL spec, else after the provider. */
export function modelOfSpec(spec: string): { provider: string; model: string } {
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? spec : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  const hash = rest.lastIndexOf('#');
  return { provider, model: provider === 'openai-compatible' && hash !== -1 ? rest.slice(hash + 1) : rest };
}

/**
 * The price of a backend spec: the exact spec, else the model name or the longest key the model
 * name starts with (dated versions such as `claude-sonnet-4-20250514`), else the provider.
 */
export function priceFor(spec: string, table: PriceTable): Price | undefined {
  if (Object.hasOwn(table, spec)) return table[spec];
  const { provider, model } = modelOfSpec(spec);
  if (model && Object.hasOwn(table, model)) return table[model];
  const prefix = Object.keys(table)
    .filter((key) => model.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  if (prefix) return table[prefix];
  if (Object.hasOwn(table, provider)) return table[provider];
  return isLocalEndpoint(spec) ? LOCAL_PRICE : undefined;
}

const LOCAL_PRICE: Price = { input: 0, output: 0 };

/**
 * An `openai-compatible:` URL on this machine (127.0.0.0/8, localhost, ::1): a local server costs
 * nothing. It comes after the table, so a local proxy serving a listed model keeps that model's price.
 */
export function isLocalEndpoint(spec: string): boolean {
  if (!spec.startsWith('openai-compatible:')) return false;
  const rest = spec.slice('openai-compatible:'.length);
  const hash = rest.lastIndexOf('#');
  let host: string;
  try {
    host = new URL(hash === -1 ? rest : rest.slice(0, hash)).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Input tokens include cached ones; reasoning tokens are part of output (as providers bill them). */
export function costOf(usage: Usage, price: Price): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const cachedPrice = price.cachedInput ?? price.input;
  return ((usage.inputTokens - cached) * price.input + cached * cachedPrice + usage.outputTokens * price.output) / 1_000_000;
}

export const sumUsage = (usages: Iterable<Usage>): Usage => [...usages].reduce(addUsage, zeroUsage());
