import { BackendError } from '../backend.js';
import { probeEndpoint, unreachableFix } from '../endpoint-probe.js';
import type { CodexEvent } from './events.js';
import { stderrTail } from './failures.js';
import { codexProvider, readCodexConfig } from './provider.js';

/**
 * Codex 0.169's notices that it cannot reach its model provider, as `--json` error events and error
 * items: `Reconnecting... waiting for network (Connection failed: error sending request)` (it then
 * waits for the network forever, whatever its retry settings), `Reconnecting... 2/5 (stream
 * disconnected before completion: failed to lookup address information: ...)`, `Falling back from
 * WebSockets to HTTPS transport. ...`. A stream the provider cut, a 4xx or a 5xx is not one of them.
 */
const CANNOT_REACH = /waiting for network|failed to lookup address|name does not resolve|name or service not known|dns error|connection refused|error sending request|tcp connect error|network is unreachable|no route to host/i;

/** How long Codex may go on failing to reach its provider, with no sign of progress, before parley ends the turn. */
export const UNREACHABLE_AFTER_MS = 15_000;

/**
 * Watches a turn's events: once Codex says it cannot reach its provider and nothing else happens
 * for `afterMs` (no item, no completed turn), calls `onUnreachable` with Codex's last such notice.
 */
export function watchReach(onUnreachable: (notice: string) => void, afterMs = UNREACHABLE_AFTER_MS): { onEvent(event: CodexEvent): void; last(): string | undefined; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let notice: string | undefined;
  return {
    onEvent(event) {
      const message = noticeOf(event);
      if (message !== undefined && CANNOT_REACH.test(message)) {
        notice = message;
        timer ??= setTimeout(() => onUnreachable(notice!), afterMs);
      } else if (progressed(event)) {
        clearTimeout(timer);
        timer = undefined;
      }
    },
    last: () => notice,
    stop: () => clearTimeout(timer),
  };
}

function noticeOf(event: CodexEvent): string | undefined {
  const data = event as { type: string; message?: unknown; item?: { type?: unknown; message?: unknown } };
  if (data.type === 'error' && typeof data.message === 'string') return data.message;
  if (data.type.startsWith('item.') && data.item?.type === 'error' && typeof data.item.message === 'string') return data.item.message;
  return undefined;
}

const progressed = (event: CodexEvent): boolean => event.type === 'turn.completed' || (event.type.startsWith('item.') && noticeOf(event) === undefined);

/**
 * The failure of a turn parley ended because Codex could not reach its provider: which provider
 * and URL (from Codex's config and the call's overrides), what parley's own probe of it found (no
 * key sent), what Codex said, and what to do.
 */
export async function unreachableError(notice: string, options: { env: NodeJS.ProcessEnv; overrides?: Record<string, string>; stderr: string }): Promise<BackendError> {
  const provider = codexProvider(readCodexConfig(options.env), options.overrides ? { overrides: options.overrides } : {});
  const probes = await Promise.all(provider.urls.map(async (url) => ({ url, probe: await probeEndpoint(url) })));
  const down = probes.filter(({ probe }) => probe.status === undefined);
  const cause = down.length ? down.map(({ url, probe }) => `${url}: ${probe.error ?? 'no answer'}`).join('; ') : probes.length ? `${provider.urls.join(', ')} answered parley's probe just now` : 'no base URL parley could read';
  const url = (down[0] ?? probes[0])?.url;
  const fix = url ? unreachableFix(url, provider.id, provider.where) : `check this machine's network connection (and proxy), or ${provider.where}`;
  return new BackendError(
    'unreachable',
    `codex cannot reach its model provider ${provider.id} (${cause}); Codex said: ${notice}. Nothing was answered: ${fix}; \`parley doctor\` checks it`,
    { stderrTail: stderrTail(options.stderr) },
  );
}
