import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localProviderConfig } from '../../wrapper/codex/local-provider.js';

export interface CodexHome {
  codexHome: string;
  /** An empty folder beside CODEX_HOME for Codex to work in (Codex's home is hidden from its commands). */
  workDir: string;
  /** process.env plus CODEX_HOME and a TMPDIR that does not contain CODEX_HOME. */
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

/**
 * An isolated CODEX_HOME whose config points Codex at a scripted Responses server, with retries off
 * so failures surface at once. CODEX_HOME and TMPDIR are sibling folders: when CODEX_HOME lies under
 * TMPDIR, Codex prints a PATH-alias warning on stderr.
 */
export async function makeCodexHome(baseUrl: string, options: { model?: string } = {}): Promise<CodexHome> {
  const root = await mkdtemp(join(tmpdir(), 'parley-codex-'));
  const codexHome = join(root, 'home');
  const tmp = join(root, 'tmp');
  const workDir = join(root, 'work');
  await mkdir(codexHome, { recursive: true });
  await mkdir(tmp, { recursive: true });
  await mkdir(workDir, { recursive: true });
  const model = options.model ?? 'fake-model';
  const config = localProviderConfig({ provider: 'fake', name: 'fake', model, baseUrl });
  await writeFile(join(codexHome, 'config.toml'), config, 'utf8');
  return {
    codexHome,
    workDir,
    env: { ...process.env, CODEX_HOME: codexHome, TMPDIR: tmp },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}
