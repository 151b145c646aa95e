import { chmod, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactJson } from '../schemas/secrets.js';
import { openAuditLog, type AuditLog } from './audit-log.js';

/** Run folders hold prompts, replies and configs: new ones only the owner may list or read. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
}

/** Also makes an existing folder private (one an older parley made 0755): for folders parley owns, never one a user named. */
export async function tightenDir(dir: string): Promise<void> {
  await makePrivateDir(dir);
  await chmod(dir, 0o700);
}

/**
 * A run's audit log, created 0600 in a 0700 folder, whose lines never hold a known secret.
 * The store's own audit logs are opened by the store.
 */
export async function openPrivateAuditLog(path: string): Promise<AuditLog> {
  await makePrivateDir(dirname(path));
  await (await open(path, 'a', 0o600)).close();
  await chmod(path, 0o600);
  const log = openAuditLog(path);
  return { path: log.path, append: (record) => log.append(redactJson(record)), readAll: () => log.readAll() };
}
