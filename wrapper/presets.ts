/**
 * OpenAI-compatible providers a model spec can name by prefix, e.g. `openrouter:meta-llama/llama-3.3-70b-instruct`.
 *
 * | prefix            | base URL                                | key env var          | json_schema | seed |
 * | ----------------- | --------------------------------------- | -------------------- | ----------- | ---- |
 * | openai            | https://api.openai.com/v1               | OPENAI_API_KEY       | yes         | yes  |
 * | openrouter        | https://openrouter.ai/api/v1            | OPENROUTER_API_KEY   | yes         | yes  |
 * | ollama            | http://127.0.0.1:11434/v1               | (none)               | yes         | yes  |
 * | vllm              | http://127.0.0.1:8000/v1                | VLLM_API_KEY (opt.)  | yes         | yes  |
 * | lmstudio          | http://127.0.0.1:1234/v1                | (none)               | yes         | yes  |
 * | anthropic         | https://api.anthropic.com/v1/           | ANTHROPIC_API_KEY    | no          | no   |
 * | openai-compatible | the URL in `openai-compatible:<url>#<model>` | PARLEY_API_KEY (opt.) | yes    | yes  |
 *
 * `json_schema: no` means structured replies are asked for in the prompt and the JSON is taken
 * from the text (Anthropic's compatibility layer ignores `response_format`). PARLEY_API_KEY goes
 * only to the URLs listed in PARLEY_API_BASE_URL (key-scope.ts): a spec's URL may come from a tool argument.
 */
export interface ProviderPreset {
  provider: string;
  baseUrl?: string;
  /** Env var holding the key; absent when the server needs none. */
  keyEnv?: string;
  /** Whether a missing key is an error before any call is made. */
  keyRequired: boolean;
  supportsJsonSchema: boolean;
  supportsSeed: boolean;
  /** Whether the server reports usage in a streamed reply when asked with stream_options. */
  supportsStreamUsage: boolean;
  description: string;
}

export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  openai: {
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    keyEnv: 'OPENAI_API_KEY',
    keyRequired: true,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'OpenAI chat completions',
  },
  openrouter: {
    provider: 'openrouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    keyEnv: 'OPENROUTER_API_KEY',
    keyRequired: true,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'OpenRouter (many hosted models behind one key)',
  },
  ollama: {
    provider: 'ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    keyRequired: false,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'Ollama on this machine',
  },
  vllm: {
    provider: 'vllm',
    baseUrl: 'http://127.0.0.1:8000/v1',
    keyEnv: 'VLLM_API_KEY',
    keyRequired: false,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'vLLM OpenAI-compatible server',
  },
  lmstudio: {
    provider: 'lmstudio',
    baseUrl: 'http://127.0.0.1:1234/v1',
    keyRequired: false,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'LM Studio local server',
  },
  anthropic: {
    provider: 'anthropic',
    baseUrl: 'https://api.anthropic.com/v1/',
    keyEnv: 'ANTHROPIC_API_KEY',
    keyRequired: true,
    supportsJsonSchema: false,
    supportsSeed: false,
    supportsStreamUsage: true,
    description: "Anthropic's OpenAI-compatible endpoint",
  },
  'openai-compatible': {
    provider: 'openai-compatible',
    keyEnv: 'PARLEY_API_KEY',
    keyRequired: false,
    supportsJsonSchema: true,
    supportsSeed: true,
    supportsStreamUsage: true,
    description: 'any OpenAI-compatible server at the URL given in the spec',
  },
};

/** Backends that are CLIs rather than chat APIs. */
export const CLI_PROVIDERS = ['codex', 'claude'] as const;

export function presetFor(provider: string): ProviderPreset | undefined {
  return Object.hasOwn(PROVIDER_PRESETS, provider) ? PROVIDER_PRESETS[provider] : undefined;
}
