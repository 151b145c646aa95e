import { UserFacingError } from '../schemas/user-facing-error.js';

export type StoreErrorKind =
  | 'not-found'
  | 'exists'
  | 'corrupt'
  | 'future-version'
  | 'revision-conflict'
  | 'invalid-id'
  | 'io'
  | 'lock-timeout';

export interface StoreErrorDetails {
  path?: string;
  /** Where an unreadable file was moved so that nothing is lost. */
  movedTo?: string;
  cause?: unknown;
}

/** The one error type the document store throws for anything a caller can act on. */
export class StoreError extends UserFacingError {
  readonly kind: StoreErrorKind;
  readonly path?: string;
  readonly movedTo?: string;

  constructor(kind: StoreErrorKind, message: string, details: StoreErrorDetails = {}) {
    super(message, { code: kind, cause: details.cause });
    this.kind = kind;
    if (details.path !== undefined) this.path = details.path;
    if (details.movedTo !== undefined) this.movedTo = details.movedTo;
  }
}

export function isStoreError(error: unknown, kind?: StoreErrorKind): error is StoreError {
  return error instanceof StoreError && (kind === undefined || error.kind === kind);
}

export function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
