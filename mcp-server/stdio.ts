import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.js';
import { createDeps, type DepsOptions } from './deps.js';

/** Serves parley over stdio until the client closes stdin. Logs go to stderr only. */
export async function serveStdio(options: DepsOptions = {}): Promise<void> {
  const deps = createDeps(options);
  const server = createServer(deps);
  const transport = new StdioServerTransport();
  const shutdown = async (): Promise<void> => {
    await deps.jobs.shutdown();
    await server.close();
  };
  transport.onclose = () => void deps.jobs.shutdown();
  process.once('SIGTERM', () => void shutdown().finally(() => process.exit(0)));
  process.once('SIGINT', () => void shutdown().finally(() => process.exit(0)));
  await server.connect(transport);
}
