import { resolve } from 'node:path';

/** Real output of other programs lives in shared/interop beside the checkout (CI clones it there too). */
export const INTEROP_DIR = process.env.PARLEY_INTEROP_DIR ?? resolve(import.meta.dirname, '../../../shared/interop');
export const CODEX_CAPTURES = resolve(INTEROP_DIR, 'codex-0.169');
export const PHENOMENAI_RUN = resolve(INTEROP_DIR, 'phenomenai-haiku-run-2026-04-07.json');
