import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactJson } from '../schemas/secrets.js';
import { openAuditLog, type AuditLog } from './audit-log.js';
import { errnoCode } from './store-error.js';

/** Run folders hold prompts, replies and configs: new ones only the owner may list or read. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

const warned = new Set<string>();

/**
 * Takes group and other permissions off folders and files parley writes into, for those made before
 * (an older parley, a loose umask: 0755, 0644). For parley's own paths, never one a user named for
 * something else. Never fails: one the user does not own (or a missing one) is left as it is, with a
 * warning on stderr once per path.
 */
export async function keepPrivate(...paths: string[]): Promise<void> {
  await Promise.all(
    paths.map(async (path) => {
      try {
        const { mode } = await stat(path);
        if ((mode & 0o077) !== 0) await chmod(path, mode & 0o700);
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT' || warned.has(path)) return;
        warned.add(path);
        console.error(`parley: could not make ${path} private (${code ?? String(error)}): others may read it. Run \`chmod go-rwx\` on it as its owner.`);
      }
    }),
  );
}

/**
 * A run's audit log, created 0600 in a 0700 folder (an existing one is made so), whose lines never
 * hold a known secret. The store's own audit logs are opened by the store.
 */
export async function openPrivateAuditLog(path: string): Promise<AuditLog> {
  await makePrivateDir(dirname(path));
  await (await open(path, 'a', 0o600)).close();
  await keepPrivate(dirname(path), path);
  const log = openAuditLog(path);
  return { path: log.path, append: (record) => log.append(redactJson(record)), readAll: () => log.readAll() };
}
