import type { Backend, Conversation, SendOptions } from '../wrapper/backend.js';
import type { DepsOptions } from './deps.js';
import { rememberSecretsOf } from '../schemas/secrets.js';
import { deliberationStoreLocation } from '../state/locations.js';
import { stateHome } from '../state/paths.js';

/**
 * The real protocols and backends. Both load on first use, so `parley serve` answers initialize
 * without parsing the OpenAI SDK or the protocol engines it may never need.
 */
export async function productionDepsOptions(env: NodeJS.ProcessEnv = process.env): Promise<DepsOptions> {
  rememberSecretsOf(env);
  const backends = new Map<string, Promise<Backend>>();
  // An arbiter or a run's Codex reads no deliberation nor run of this parley, as a consultee does not.
  const hidden = [stateHome(env), deliberationStoreLocation({ env }).dir];
  const load = (spec: string): Promise<Backend> => {
    let backend = backends.get(spec);
    if (!backend) {
      backend = import('../wrapper/model-spec.js').then(({ createBackend }) => createBackend(spec, { env, hidden }));
      backends.set(spec, backend);
      backend.catch(() => backends.delete(spec));
    }
    return backend;
  };
  return {
    env,
    protocols: {
      dialogic: async () => (await import('../protocols/dialogic/index.js')).dialogicProtocol,
      debate: async () => (await import('../protocols/debate/index.js')).debateProtocol,
    },
    backendFor: (spec: string): Backend => ({
      spec,
      send: async (conversation: Conversation, prompt: string, options?: SendOptions) => (await load(spec)).send(conversation, prompt, options),
    }),
  };
}
