import { dirname } from 'node:path';
import { openAuditLog } from './audit-log.js';
import { replaceFile, syncDirectory } from './atomic-write.js';
import { decodeDocument, encodeEnvelope, parseEnvelope, type Envelope } from './envelope.js';
import { withFileLock, type HeldLock } from './file-lock.js';
import { nodeFs } from './fs-seam.js';
import { keepPrivate } from './private-files.js';
import { sweepLeftovers } from './leftovers.js';
import { auditLogPathFor, idFromStateFileName, stateFilePathFor } from './locations.js';
import { StoreError, errnoCode } from './store-error.js';
import type { AuditEntry, DocumentStore, DocumentStoreOptions, ListedDocument } from './store-types.js';

export { StoreError, isStoreError, type StoreErrorKind } from './store-error.js';
export type { FsSeam, FileHandleSeam } from './fs-seam.js';
export { nodeFs } from './fs-seam.js';
export type { Migration } from './envelope.js';
export type * from './store-types.js';
export { auditLogPathFor, reportPathFor, deliberationStoreLocation, validateDocumentId, type StoreLayout, type StoreLocation } from './locations.js';

const DEFAULT_LOCK_STALE_MS = 10_000;
/** A document's folder is swept for leftovers of killed writers at most this often per process. */
const SWEEP_INTERVAL_MS = 1_000;

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
  const lastSwept = new Map<string, number>();
  const privateDirs = options.privateDirs ?? [dir];

  const pathFor = (id: string) => stateFilePathFor(dir, id, filePrefix);
  const auditLogPath = (id: string) => auditLogPathFor(dir, id, filePrefix);

  const ensureDir = () => {
    dirReady ??= fs
      .mkdir(dir)
      // so a first create survives a power loss, the new folder's own entry is synced too
      .then(() => syncDirectory(fs, dirname(dir)).catch(() => undefined))
      // an older parley made these 0755
      .then(() => keepPrivate(...privateDirs))
      .catch((error: unknown) => {
        dirReady = undefined;
        throw ioError(`cannot create state folder ${dir}`, dir, error);
      });
    return dirReady;
  };

  async function locked<X>(path: string, work: (lock: HeldLock) => Promise<X>): Promise<X> {
    await ensureDir();
    const fn = async (lock: HeldLock) => {
      const swept = lastSwept.get(path);
      if (swept === undefined || performance.now() - swept > SWEEP_INTERVAL_MS) {
        lastSwept.set(path, performance.now());
        await sweepLeftovers(fs, path, staleMs);
      }
      return work(lock);
    };
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
      if (errnoCode(error) === 'EISDIR') {
        throw new StoreError('corrupt', `${path} is a folder, not a file: move or rename it to use this document id`, { path, cause: error });
      }
      throw ioError(`cannot read ${path}`, path, error);
    }
  }

  const decode = (text: string) => decodeDocument(text, { schema: options.schema, currentVersion: options.currentVersion, migrations });

  function notFound(id: string, path: string): StoreError {
    return new StoreError('not-found', `no document ${JSON.stringify(id)} (${path})`, { path });
  }

  function newerVersion(path: string, reason: string): StoreError {
    return new StoreError('future-version', `state file ${path} was written by a newer parley: ${reason}. It was left as it is.`, { path });
  }

  /**
   * Decodes a state file for a change, under the lock. A corrupt one is moved aside (never reset) and
   * reported; one from a newer parley is refused and left alone, so the newer parley still finds it.
   */
  async function load(id: string, path: string) {
    const text = await readText(path);
    if (text === undefined) throw notFound(id, path);
    const decoded = decode(text);
    if (decoded.ok) return decoded;
    if (decoded.kind === 'future-version') throw newerVersion(path, decoded.reason);
    const movedTo = `${path}.${decoded.kind}-${now().toISOString().replace(/[:.]/g, '')}`;
    try {
      await fs.rename(path, movedTo);
      await syncDirectory(fs, dirname(path));
    } catch (error) {
      throw ioError(`state file ${path} is unreadable (${decoded.reason}) and could not be moved aside`, path, error);
    }
    throw new StoreError(
      decoded.kind,
      `state file ${path} is corrupt: ${decoded.reason}. It was moved to ${movedTo}; nothing was reset. ` +
        'Repair it and move it back, or start a new document.',
      { path, movedTo },
    );
  }

  /** `alongside` (the audit line) runs with the folder sync: two independent fsyncs in flight at once. */
  async function commit(path: string, lock: HeldLock, envelope: Envelope, alongside: () => Promise<void> = async () => undefined): Promise<void> {
    const data = encodeEnvelope(envelope);
    try {
      // The lock is checked once the data is on disk, so only the rename itself follows the check.
      await replaceFile(fs, path, data, () => lock.verify());
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
    // Appends keep a file's mode and a refused move does not rewrite the state file: a 0644 or 0755 left
    // by an older parley (or a chmod while this server runs) is fixed at the next move. A few stats.
    await keepPrivate(...privateDirs, pathFor(id), auditLogPath(id));
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

    /** A read never moves, renames or deletes anything: it reports what it found. */
    async read(id) {
      const path = pathFor(id);
      const text = await readText(path);
      if (text === undefined) throw notFound(id, path);
      const decoded = decode(text);
      if (decoded.ok) return { value: decoded.value, revision: decoded.envelope.revision, path };
      if (decoded.kind === 'future-version') throw newerVersion(path, decoded.reason);
      throw new StoreError(
        'corrupt',
        `state file ${path} is corrupt: ${decoded.reason}. It was left as it is; the next change to this document moves it aside ` +
          '(nothing is reset). Repair it, or start a new document.',
        { path },
      );
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
          await appendAudit(id, updateOptions.auditUnchanged ?? updateOptions.audit, { revision, changed: false, result: outcome.refuse });
          return { revision, value: current, result: outcome.refuse, changed: false };
        }
        const next = checkValue(outcome.value, 'the updated document');
        if (migratedFrom === undefined && JSON.stringify(next) === JSON.stringify(current)) {
          await appendAudit(id, updateOptions.auditUnchanged ?? updateOptions.audit, { revision, changed: false, result: outcome.result });
          return { revision, value: current, result: outcome.result, changed: false };
        }
        await commit(path, lock, envelopeFor(next, revision + 1, envelope.createdAt, now().toISOString()), () =>
          appendAudit(id, updateOptions.audit, { revision: revision + 1, changed: true, result: outcome.result }),
        );
        await updateOptions.afterCommit?.(next, revision + 1);
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
      for (const name of names) {
        const id = idFromStateFileName(name, filePrefix);
        if (id === undefined) continue;
        let text: string | undefined;
        try {
          text = await readText(pathFor(id));
        } catch (error) {
          listed.push({ id, revision: 0, problem: error instanceof StoreError && error.kind === 'corrupt' ? `not a file: ${name} is a folder` : `unreadable: ${(error as Error).message}` });
          continue;
        }
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
