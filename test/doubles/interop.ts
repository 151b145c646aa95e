import { resolve } from 'node:path';

/** Real output of other programs, kept in the repository (where each came from: interop/README.md). */
export const INTEROP_DIR = resolve(import.meta.dirname, 'interop');
export const CODEX_CAPTURES = resolve(INTEROP_DIR, 'codex-0.169');
export const PHENOMENAI_RUN = resolve(INTEROP_DIR, 'phenomenai-haiku-run-2026-04-07.json');
