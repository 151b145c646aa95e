/**
 * The config.toml lines that point Codex at a Responses server on 127.0.0.1 as its model provider:
 * no login, no key, retries off so a failure surfaces at once. The demo and the tests' Codex homes
 * both write these.
 */
export function localProviderConfig(options: { provider: string; name: string; model: string; baseUrl: string; settings?: string[] }): string {
  return [
    `model = ${JSON.stringify(options.model)}`,
    `model_provider = ${JSON.stringify(options.provider)}`,
    ...(options.settings ?? []),
    '',
    `[model_providers.${options.provider}]`,
    `name = ${JSON.stringify(options.name)}`,
    `base_url = ${JSON.stringify(options.baseUrl)}`,
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}
