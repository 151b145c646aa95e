import { describe, expect, it } from 'vitest';
import { BackendError } from '../../wrapper/backend.js';
import { createBackend, parseModelSpec } from '../../wrapper/model-spec.js';
import { PROVIDER_PRESETS } from '../../wrapper/presets.js';

function kindOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof BackendError ? error.kind : 'not a BackendError';
  }
  return undefined;
}

describe('parseModelSpec', () => {
  it.each([
    ['openai:gpt-4.1', { provider: 'openai', model: 'gpt-4.1' }],
    ['openrouter:meta-llama/llama-3.3-70b-instruct:free', { provider: 'openrouter', model: 'meta-llama/llama-3.3-70b-instruct:free' }],
    ['ollama:llama3.1:8b', { provider: 'ollama', model: 'llama3.1:8b' }],
    ['vllm:Qwen/Qwen2.5-7B-Instruct', { provider: 'vllm', model: 'Qwen/Qwen2.5-7B-Instruct' }],
    ['lmstudio:qwen2.5-7b-instruct', { provider: 'lmstudio', model: 'qwen2.5-7b-instruct' }],
    ['anthropic:claude-sonnet-4-5', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['codex:gpt-5.2', { provider: 'codex', model: 'gpt-5.2' }],
    ['codex', { provider: 'codex', model: '' }],
    ['claude:claude-sonnet-4-5', { provider: 'claude', model: 'claude-sonnet-4-5' }],
    ['claude', { provider: 'claude', model: '' }],
    ['  openai:gpt-4.1-mini ', { provider: 'openai', model: 'gpt-4.1-mini' }],
  ])('%s', (spec, expected) => {
    expect(parseModelSpec(spec)).toEqual(expected);
  });

  it('takes the URL and the model after the last # of an openai-compatible spec', () => {
    expect(parseModelSpec('openai-compatible:http://127.0.0.1:8080/v1#my/model:q4')).toEqual({
      provider: 'openai-compatible',
      model: 'my/model:q4',
      baseUrl: 'http://127.0.0.1:8080/v1',
    });
    expect(parseModelSpec('openai-compatible:https://llm.example.com/v1/#m').baseUrl).toBe('https://llm.example.com/v1');
  });

  it.each([
    '',
    '   ',
    'gpt-4.1',
    'openai:',
    'openai:gpt 4',
    'mistral:large',
    'openai-compatible:http://127.0.0.1:8080/v1',
    'openai-compatible:http://127.0.0.1:8080/v1#',
    'openai-compatible:not a url#m',
    'openai-compatible:ftp://host/v1#m',
    'openai-compatible:http://user:pw@host/v1#m',
    'codex:gpt 5',
    '__proto__:x',
  ])('refuses %j with bad-spec', (spec) => {
    expect(kindOf(() => parseModelSpec(spec))).toBe('bad-spec');
  });

  it('names the accepted forms in the refusal', () => {
    expect(() => parseModelSpec('mistral:large')).toThrow(/Accepted forms: openai:<model>.*openai-compatible:<http\(s\) url>#<model>.*claude\[:<model>\]/);
  });
});

describe('createBackend', () => {
  it('makes a backend for every form, keeping the spec', () => {
    const env = { OPENAI_API_KEY: 'sk-test', OPENROUTER_API_KEY: 'or-test', ANTHROPIC_API_KEY: 'an-test' };
    for (const spec of ['openai:gpt-4.1', 'openrouter:x/y', 'ollama:llama3.1:8b', 'vllm:m', 'lmstudio:m', 'anthropic:claude-sonnet-4-5', 'openai-compatible:http://127.0.0.1:9/v1#m', 'claude:claude-sonnet-4-5', 'codex:gpt-5.2']) {
      expect(createBackend(spec, { env }).spec).toBe(spec);
    }
  });

  it('refuses a provider whose key is missing, naming the env var and not any value', () => {
    const error = (() => {
      try {
        createBackend('openai:gpt-4.1', { env: { OPENROUTER_API_KEY: 'or-secret-value' } });
      } catch (caught) {
        return caught as BackendError;
      }
      return undefined;
    })();
    expect(error?.kind).toBe('bad-spec');
    expect(error?.message).toContain('OPENAI_API_KEY');
    expect(error?.message).not.toContain('or-secret-value');
  });

  it('lists every preset with a description for the README', () => {
    for (const preset of Object.values(PROVIDER_PRESETS)) {
      expect(preset.description.length).toBeGreaterThan(0);
      if (preset.provider !== 'openai-compatible') expect(preset.baseUrl).toMatch(/^https?:\/\//);
    }
  });
});
