import { describe, expect, it, vi } from 'vitest';
import { watchReach } from '../../../wrapper/codex/unreachable.js';
import { CHATGPT_CODEX_URL, codexProvider, OPENAI_API_URL } from '../../../wrapper/codex/provider.js';
import { localProviderConfig } from '../../../wrapper/codex/local-provider.js';
import { eventLine, parseEventLine } from '../../../wrapper/codex/index.js';
import { INTEROP_DIR } from '../../doubles/interop.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = '/home/u/.codex/config.toml';
const provider = (text: string, options: Parameters<typeof codexProvider>[1] = {}) => codexProvider({ text, file: FILE }, options);

describe("where Codex sends its model requests (its config.toml, read as Codex reads it)", () => {
  it('the built-in openai provider: openai_base_url, else ChatGPT or the API by the login, else both', () => {
    expect(provider('')).toEqual({ id: 'openai', urls: [CHATGPT_CODEX_URL, OPENAI_API_URL], where: `openai_base_url in ${FILE} (if Codex should use another endpoint)` });
    expect(provider('', { login: 'chatgpt' }).urls).toEqual([CHATGPT_CODEX_URL]);
    expect(provider('model = "gpt-5"\n', { login: 'api-key' }).urls).toEqual([OPENAI_API_URL]);
    expect(provider("openai_base_url = 'https://gateway.example/v1' # ours\n")).toEqual({ id: 'openai', urls: ['https://gateway.example/v1'], where: `openai_base_url in ${FILE}` });
  });

  it('a provider of the config: its base_url, from a table, a quoted table, a dotted key or a profile', () => {
    const local = localProviderConfig({ provider: 'fake', name: 'fake', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(provider(local)).toEqual({ id: 'fake', urls: ['http://127.0.0.1:8080/v1'], where: `base_url of [model_providers.fake] in ${FILE}` });
    expect(provider('model_provider = "my-gw"\n[model_providers."my-gw"]\nbase_url = "https://gw.example/v1"\n').urls).toEqual(['https://gw.example/v1']);
    expect(provider('model_provider = "x"\nmodel_providers.x.base_url = "http://h:1/v1"\n').urls).toEqual(['http://h:1/v1']);
    const profiles = 'profile = "work"\nmodel_provider = "home"\n[profiles.work]\nmodel_provider = "corp"\n[model_providers.home]\nbase_url = "http://home/v1"\n[model_providers.corp]\nbase_url = "https://corp/v1"\n';
    expect(provider(profiles).urls).toEqual(['https://corp/v1']);
    // A key of another table is not the top-level one.
    expect(provider('[tui]\nmodel_provider = "nope"\n').id).toBe('openai');
  });

  it('the overrides a call passes (-c, TOML values) win over the file', () => {
    const local = localProviderConfig({ provider: 'fake', name: 'fake', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' });
    expect(provider(local, { overrides: { 'model_providers.fake.base_url': '"http://127.0.0.1:9999/v1"' } }).urls).toEqual(['http://127.0.0.1:9999/v1']);
    expect(provider(local, { overrides: { model_provider: '"oss"' } })).toMatchObject({ id: 'oss', urls: ['http://localhost:11434/v1'] });
    expect(provider('model_provider = "unknown"\n')).toMatchObject({ id: 'unknown', urls: [] });
  });
});

describe('a progress line for a codex event', () => {
  it("gives Codex's own words for its errors and warnings, the type alone for the rest", () => {
    const captured = readFileSync(join(INTEROP_DIR, 'codex-0.169', '22_unreachable_json.stdout'), 'utf8').split('\n').flatMap((line) => parseEventLine(line) ?? []);
    expect(captured.map(eventLine)).toEqual([
      'thread.started',
      'item.completed: Model metadata for `fake-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
      'turn.started',
      'error: Reconnecting... waiting for network (Connection failed: error sending request)',
      'error: Reconnecting... waiting for network (Connection failed: error sending request)',
    ]);
  });
});

describe('watching a turn for a provider Codex cannot reach', () => {
  const events = (lines: object[]) => lines.map((line) => parseEventLine(JSON.stringify(line))!);
  const waiting = { type: 'error', message: 'Reconnecting... waiting for network (Connection failed: error sending request)' };
  const dns = { type: 'error', message: 'Reconnecting... 2/5 (stream disconnected before completion: failed to lookup address information: Name does not resolve)' };

  it('ends the turn once Codex has said so and nothing else happened for a while; progress starts the wait over', () => {
    vi.useFakeTimers();
    try {
      const ended: string[] = [];
      const watch = watchReach((notice) => ended.push(notice), 1_000);
      for (const event of events([{ type: 'turn.started' }, dns])) watch.onEvent(event);
      vi.advanceTimersByTime(900);
      for (const event of events([{ type: 'item.completed', item: { id: 'i', type: 'reasoning', text: 'thinking' } }])) watch.onEvent(event);
      vi.advanceTimersByTime(900);
      expect(ended).toEqual([]);
      for (const event of events([waiting])) watch.onEvent(event);
      vi.advanceTimersByTime(600);
      for (const event of events([waiting])) watch.onEvent(event);
      vi.advanceTimersByTime(500);
      expect(ended).toEqual([waiting.message]);
      watch.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a stream the provider cut, a status it answered, or a warning item is not a provider out of reach', () => {
    vi.useFakeTimers();
    try {
      const ended: string[] = [];
      const watch = watchReach((notice) => ended.push(notice), 1_000);
      const others = [
        { type: 'error', message: 'Reconnecting... 1/5 (stream disconnected before completion: stream closed before response.completed)' },
        { type: 'error', message: 'unexpected status 500 Internal Server Error: scripted outage' },
        { type: 'item.completed', item: { id: 'i', type: 'error', message: 'Model metadata for `fake-model` not found.' } },
      ];
      for (const event of events(others)) watch.onEvent(event);
      vi.advanceTimersByTime(5_000);
      expect(ended).toEqual([]);
      expect(watch.last()).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
