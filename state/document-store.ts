import { dirname, join } from 'node:path';
import { openAuditLog } from './audit-log.js';
import { TEMP_FILE_PATTERN, replaceFile, syncDirectory } from './atomic-write.js';
import { decodeDocument, encodeEnvelope, parseEnvelope, type Envelope } from './envelope.js';
import { withFileLock, type HeldLock } from './file-lock.js';
import { nodeFs } from './fs-seam.js';
import { auditLogPathFor, idFromStateFileName, stateFilePathFor } from './locations.js';
import { StoreError, errnoCode } from './store-error.js';
import type { AuditEntry, DocumentStore, DocumentStoreOptions, ListedDocument } from './store-types.js';

export { StoreError, isStoreError, type StoreErrorKind } from './store-error.js';
export type { FsSeam, FileHandleSeam } from './fs-seam.js';
export { nodeFs } from './fs-seam.js';
export type { Migration } from './envelope.js';
export type * from './store-types.js';
export { auditLogPathFor, deliberationStoreLocation, validateDocumentId, type StoreLayout, type StoreLocation } from './locations.js';

const DEFAULT_LOCK_STALE_MS = 10_000;

export function createDocumentStore<T>(options: DocumentStoreOptions<T>): DocumentStore<T> {
  if (!Number.isInteger(options.currentVersion) || options.currentVersion < 0) {
    throw new Error(`currentVersion must be a non-negative integer, got ${options.currentVersion}`);
  }
  const fs = options.fs ?? nodeFs;
  const dir = options.dir;
  const filePrefix = options.filePrefix ?? '';
  const migrations = options.migrations ?? {};
  const now = options.now ?? (() => new Date());
  const staleMs = options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS;
  const lockOptions = { fs, staleMs, timeoutMs: options.lockTimeoutMs ?? staleMs + 5_000 };
  let dirReady: Promise<void> | undefined;

  const pathFor = (id: string) => stateFilePathFor(dir, id, filePrefix);
  const auditLogPath = (id: string) => auditLogPathFor(dir, id, filePrefix);

  const ensureDir = () => {
    dirReady ??= fs
      .mkdir(dir)
      // so a first create survives a power loss, the new folder's own entry is synced too
      .then(() => syncDirectory(fs, dirname(dir)).catch(() => undefined))
      .catch((error: unknown) => {
        dirReady = undefined;
        throw ioError(`cannot create state folder ${dir}`, dir, error);
      });
    return dirReady;
  };

  async function locked<X>(path: string, fn: (lock: HeldLock) => Promise<X>): Promise<X> {
    await ensureDir();
    try {
      return await withFileLock(`${path}.lock`, lockOptions, fn);
    } catch (error) {
      // The folder was deleted while this store was alive: make it again, once.
      if (!(error instanceof StoreError && errnoCode(error.cause) === 'ENOENT' && error.path === `${path}.lock`)) throw error;
      dirReady = undefined;
      await ensureDir();
      return withFileLock(`${path}.lock`, lockOptions, fn);
    }
  }

  async function readText(path: string): Promise<string | undefined> {
    try {
      return await fs.readFile(path);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw ioError(`cannot read ${path}`, path, error);
    }
  }

  /** Decodes a state file; an unreadable one is moved aside (never reset) and reported. Call under the lock. */
  async function load(id: string, path: string) {
    const text = await readText(path);
    if (text === undefined) throw new StoreError('not-found', `no document ${JSON.stringify(id)} (${path})`, { path });
    const decoded = decodeDocument(text, { schema: options.schema, currentVersion: options.currentVersion, migrations });
    if (decoded.ok) return decoded;
    const movedTo = `${path}.${decoded.kind}-${now().toISOString().replace(/[:.]/g, '')}`;
    try {
      await fs.rename(path, movedTo);
      await syncDirectory(fs, dirname(path));
    } catch (error) {
      throw ioError(`state file ${path} is unreadable (${decoded.reason}) and could not be moved aside`, path, error);
    }
    const what = decoded.kind === 'future-version' ? 'was written by a newer parley' : 'is corrupt';
    throw new StoreError(
      decoded.kind,
      `state file ${path} ${what}: ${decoded.reason}. It was moved to ${movedTo}; nothing was reset. ` +
        'Repair it and move it back, or start a new document.',
      { path, movedTo },
    );
  }

  /** `alongside` (the audit line) runs with the folder sync: two independent fsyncs in flight at once. */
  async function commit(path: string, lock: HeldLock, envelope: Envelope, alongside: () => Promise<void> = async () => undefined): Promise<void> {
    const data = encodeEnvelope(envelope);
    await lock.verify();
    try {
      await replaceFile(fs, path, data);
    } catch (error) {
      const before = envelope.revision > 1 ? `revision ${envelope.revision - 1} is intact` : 'nothing was created';
      throw ioError(`could not write ${path} (${before})`, path, error);
    }
    const [folder, extra] = await Promise.allSettled([syncDirectory(fs, dirname(path)), alongside()]);
    if (folder.status === 'rejected') {
      throw ioError(`revision ${envelope.revision} of ${path} is in place but its folder sync failed: it may not survive a power loss`, path, folder.reason);
    }
    if (extra.status === 'rejected') throw extra.reason;
  }

  function checkValue(value: T, what: string): T {
    const parsed = options.schema.safeParse(value);
    if (!parsed.success) throw new Error(`${what} does not match the document schema: ${parsed.error.message}`);
    return parsed.data;
  }

  function envelopeFor(value: T, revision: number, createdAt: string | undefined, at: string): Envelope {
    const envelope: Envelope = { schemaVersion: options.currentVersion, revision, createdAt: createdAt ?? at, updatedAt: at, value };
    if (options.summarize) envelope.summary = options.summarize(value);
    return envelope;
  }

  async function appendAudit(id: string, entry: AuditEntry | undefined, fields: Record<string, unknown>) {
    if (!entry) return;
    try {
      await openAuditLog(auditLogPath(id)).append({ ...entry, id, ...fields });
    } catch (error) {
      throw ioError(`the change was committed but its audit record could not be written to ${auditLogPath(id)}`, auditLogPath(id), error);
    }
  }

  /** Temp files of writers killed mid-write; a live writer keeps one for milliseconds, so age alone is safe. */
  async function sweepAbandonedTemps(names: string[]) {
    for (const name of names) {
      const base = TEMP_FILE_PATTERN.exec(name)?.[1];
      if (base === undefined || idFromStateFileName(base, filePrefix) === undefined) continue;
      const path = join(dir, name);
      const mtime = await fs.mtimeMs(path).catch(() => undefined);
      if (mtime !== undefined && Date.now() - mtime > staleMs) await fs.unlink(path).catch(() => undefined);
    }
  }

  return {
    dir,
    pathFor,
    auditLogPath,
    auditLog: (id) => openAuditLog(auditLogPath(id)),

    async create(id, value, createOptions = {}) {
      const path = pathFor(id);
      const checked = checkValue(value, 'the new document');
      return locked(path, async (lock) => {
        if ((await readText(path)) !== undefined) {
          throw new StoreError('exists', `document ${JSON.stringify(id)} already exists (${path}); read or update it instead`, { path });
        }
        await commit(path, lock, envelopeFor(checked, 1, undefined, now().toISOString()));
        await appendAudit(id, createOptions.audit, { revision: 1, changed: true });
        return { value: checked, revision: 1, path };
      });
    },

    async read(id) {
      const path = pathFor(id);
      const text = await readText(path);
      if (text !== undefined) {
        const decoded = decodeDocument(text, { schema: options.schema, currentVersion: options.currentVersion, migrations });
        if (decoded.ok) return { value: decoded.value, revision: decoded.envelope.revision, path };
      }
      // Missing or unreadable: decide (and move aside) under the lock, against the latest content.
      return locked(path, async () => {
        const decoded = await load(id, path);
        return { value: decoded.value, revision: decoded.envelope.revision, path };
      });
    },

    async update(id, apply, updateOptions = {}) {
      const path = pathFor(id);
      return locked(path, async (lock) => {
        const { envelope, value: current, migratedFrom } = await load(id, path);
        const revision = envelope.revision;
        if (updateOptions.expectRevision !== undefined && updateOptions.expectRevision !== revision) {
          throw new StoreError(
            'revision-conflict',
            `document ${JSON.stringify(id)} is at revision ${revision}, not ${updateOptions.expectRevision}: read it again and retry`,
            { path },
          );
        }
        const outcome = apply(current, revision);
        if (typeof (outcome as unknown as PromiseLike<unknown>)?.then === 'function') {
          throw new Error('update(apply): apply must be synchronous and pure; do async work before calling update');
        }
        if ('refuse' in outcome) {
          await appendAudit(id, updateOptions.audit, { revision, changed: false, result: outcome.refuse });
          return { revision, value: current, result: outcome.refuse, changed: false };
        }
        const next = checkValue(outcome.value, 'the updated document');
        if (migratedFrom === undefined && JSON.stringify(next) === JSON.stringify(current)) {
          await appendAudit(id, updateOptions.audit, { revision, changed: false, result: outcome.result });
          return { revision, value: current, result: outcome.result, changed: false };
        }
        await commit(path, lock, envelopeFor(next, revision + 1, envelope.createdAt, now().toISOString()), () =>
          appendAudit(id, updateOptions.audit, { revision: revision + 1, changed: true, result: outcome.result }),
        );
        return { revision: revision + 1, value: next, result: outcome.result, changed: true };
      });
    },

    async list() {
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') return [];
        throw ioError(`cannot list ${dir}`, dir, error);
      }
      const listed: ListedDocument[] = [];
      await sweepAbandonedTemps(names);
      for (const name of names) {
        const id = idFromStateFileName(name, filePrefix);
        if (id === undefined) continue;
        const text = await readText(pathFor(id));
        if (text === undefined) continue;
        const parsed = parseEnvelope(text);
        if (!parsed.ok) {
          listed.push({ id, revision: 0, problem: `corrupt: ${parsed.reason}` });
          continue;
        }
        const { revision, updatedAt, summary, schemaVersion } = parsed.envelope;
        const entry: ListedDocument = { id, revision, updatedAt };
        if (summary !== undefined) entry.summary = summary;
        if (schemaVersion > options.currentVersion) entry.problem = `future-version: schemaVersion ${schemaVersion}`;
        listed.push(entry);
      }
      return listed.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '') || a.id.localeCompare(b.id));
    },

    async remove(id) {
      const path = pathFor(id);
      await locked(path, async () => {
        try {
          await fs.unlink(path);
        } catch (error) {
          if (errnoCode(error) === 'ENOENT') throw new StoreError('not-found', `no document ${JSON.stringify(id)} (${path})`, { path });
          throw ioError(`cannot remove ${path}`, path, error);
        }
        await syncDirectory(fs, dirname(path)).catch((error: unknown) => {
          throw ioError(`removed ${path} but its folder sync failed`, path, error);
        });
      });
    },
  };
}

function ioError(message: string, path: string, cause: unknown): StoreError {
  if (cause instanceof StoreError) return cause;
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new StoreError('io', `${message}: ${detail}`, { path, cause });
}
