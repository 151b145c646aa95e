import { BackendError, type Backend, type Conversation } from '../wrapper/backend.js';
import { createBackend } from '../wrapper/model-spec.js';
import { assertModelsReady, type ModelRole } from '../wrapper/readiness.js';
import type { RunProgress } from '../protocols/run-protocol.js';
import type { LiveLine } from './live-line.js';
import { progressDisplay } from './shared.js';

export type { ModelRole } from '../wrapper/readiness.js';

/** Who a call is for, from its spec and conversation: "agent 2 (codex:gpt-5)". */
export type CallLabeler = (spec: string, conversation: Conversation) => string;

/**
 * The run's backends (one per spec), each call reported to the live line as it starts and ends, so
 * the display can say whom the run is waiting on and why a call failed. Nothing about the calls
 * themselves changes.
 */
export function watchedBackends(live: LiveLine, labelOf: CallLabeler, make: (spec: string) => Backend = (spec) => createBackend(spec)): (spec: string) => Backend {
  const backends = new Map<string, Backend>();
  return (spec) => {
    const existing = backends.get(spec);
    if (existing) return existing;
    const inner = make(spec);
    const watched: Backend = {
      spec: inner.spec,
      async send(conversation, prompt, options) {
        const done = live.callStarted(labelOf(spec, conversation));
        try {
          const reply = await inner.send(conversation, prompt, options);
          done();
          return reply;
        } catch (error) {
          const canceled = options?.signal?.aborted || (error instanceof BackendError && error.kind === 'canceled');
          done(canceled ? undefined : error instanceof Error ? error.message : String(error));
          throw error;
        }
      },
    };
    backends.set(spec, watched);
    return watched;
  };
}

/** What a watched run gives its protocol: backends that report each call, and the progress sink. */
export interface Watch {
  backendFor: (spec: string) => Backend;
  onProgress: (update: RunProgress) => void;
}

/**
 * A protocol run from the command line: its models checked first (nothing is called when one cannot
 * be used), then run with the live line on stderr, which is cleared before the result is printed.
 */
export async function runWatched<T>(roles: readonly ModelRole[], labelOf: CallLabeler, run: (watch: Watch) => Promise<T>): Promise<T> {
  await assertModelsReady(roles);
  const display = progressDisplay(process.stderr);
  try {
    return await run({ backendFor: watchedBackends(display, labelOf), onProgress: display.update });
  } finally {
    display.end();
  }
}
