import type { z } from 'zod';
import type { AuditLog } from './audit-log.js';
import type { Migration } from './envelope.js';
import type { FsSeam } from './fs-seam.js';

export interface DocumentStoreOptions<T> {
  dir: string;
  /** Validates the CURRENT version of the document. */
  schema: z.ZodType<T>;
  /** Written as the envelope's `schemaVersion`. */
  currentVersion: number;
  /** migrations[k] turns a version-k document into version k+1; applied in order on read. */
  migrations?: Record<number, Migration>;
  fs?: FsSeam;
  lockStaleMs?: number;
  lockTimeoutMs?: number;
  /** File names are `<filePrefix><id>.json`; see deliberationStoreLocation(). */
  filePrefix?: string;
  /**
   * Folders made private (group and other permissions taken off) when the store first uses them.
   * Default: the store's folder. Leave out a folder that is not parley's own (a Claude home).
   */
  privateDirs?: string[];
  /** Stored in the envelope at each write so list() can show it without validating every file. */
  summarize?: (value: T) => unknown;
  now?: () => Date;
}

export interface StoredDocument<T> {
  value: T;
  revision: number;
  path: string;
}

/** A line for the audit log; the store adds id, revision, changed and result once the outcome is known. */
export type AuditEntry = { type: string } & Record<string, unknown>;

export type ApplyOutcome<T, R> = { value: T; result: R } | { refuse: R };

export interface UpdateOptions<T = unknown> {
  /** Refuse with StoreError('revision-conflict') unless the stored revision is exactly this. */
  expectRevision?: number;
  /** Appended (fsynced) to the document's audit log while the lock is still held, refusals included. */
  audit?: AuditEntry;
  /** The line to append instead when the update changes nothing (a refusal): it need not carry a large input. */
  auditUnchanged?: AuditEntry;
  /**
   * Runs once a change is committed and audited, still under the lock (never for a refusal or a no-op):
   * files derived from the document (a report) are written in revision order, whoever writes them.
   */
  afterCommit?: (value: T, revision: number) => Promise<void>;
}

export interface UpdateResult<T, R> {
  revision: number;
  value: T;
  result: R;
  changed: boolean;
}

export interface ListedDocument {
  id: string;
  /** 0 when the file cannot be read; `problem` then says why. */
  revision: number;
  updatedAt?: string;
  summary?: unknown;
  problem?: string;
}

export interface DocumentStore<T> {
  readonly dir: string;
  pathFor(id: string): string;
  auditLogPath(id: string): string;
  auditLog(id: string): AuditLog;
  create(id: string, value: T, options?: { audit?: AuditEntry }): Promise<StoredDocument<T>>;
  read(id: string): Promise<StoredDocument<T>>;
  update<R>(id: string, apply: (current: T, revision: number) => ApplyOutcome<T, R>, options?: UpdateOptions<T>): Promise<UpdateResult<T, R>>;
  list(): Promise<ListedDocument[]>;
  remove(id: string): Promise<void>;
}
