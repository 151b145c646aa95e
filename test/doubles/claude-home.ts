/**
 * An isolated home for the real `claude` binary in tests: a temporary HOME and CLAUDE_CONFIG_DIR,
 * and the env that points `claude -p` at a scripted Anthropic server with a dummy key.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ClaudeHome {
  home: string;
  configDir: string;
  /** A working directory inside the home (claude keys sessions by project directory). */
  cwd: string;
  /** The whole env for the child: nothing inherited from the test process but PATH. */
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

export const claudeBin = path.resolve('node_modules/.bin/claude');

export async function createClaudeHome(baseUrl: string, settings: Record<string, unknown> = {}): Promise<ClaudeHome> {
  const home = await mkdtemp(path.join(tmpdir(), 'parley-claude-home-'));
  const configDir = path.join(home, '.claude');
  const cwd = path.join(home, 'project');
  await mkdir(configDir, { recursive: true });
  await mkdir(cwd, { recursive: true });
  await writeFile(path.join(configDir, 'settings.json'), JSON.stringify(settings, null, 2));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'dummy-key-for-scripted-server',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // On a loaded machine parley's server can take longer to connect than Claude Code waits by default.
    MCP_TIMEOUT: '60000',
    // claude -p otherwise starts the first turn while MCP servers still connect (claude-code#65094): under
    // load the scripted model then calls a parley tool Claude Code does not have yet ("No such tool
    // available"). '0' makes 2.1.197 wait for the connection, up to MCP_TIMEOUT.
    MCP_CONNECTION_NONBLOCKING: '0',
  };
  return { home, configDir, cwd, env, remove: () => rm(home, { recursive: true, force: true }) };
}
