import type { DeliberationState } from '../../../schemas/argumentation.js';
import { claimText } from './claims.js';

/**
 * The consultee's scratch paths. A file Codex wrote under a temporary folder (its scratch copy, its
 * sandbox's temp dir) names nothing anyone else can open: not the arbiter, not the user reading the
 * report or the summary. Where such a path would reach them it is said as what it is, "<the consultee's
 * scratch file overflow.js>". A path under a folder the user named (the question, the material, their
 * constraints) is theirs and stays, and so do the orchestrator's own scratch paths: only a temporary
 * folder the consultee's words name is its scratch.
 */

// /tmp, /var/tmp, /dev/shm, macOS's per-user temp dir (/var/folders/xx/yyyy/T) and /private twins, Windows' Temp.
const TEMP_PATH = /(?<![\w.~/\\-])(?:(?:\/private)?(?:\/tmp|\/var\/tmp|\/var\/folders\/[^/\s]+\/[^/\s]+\/T)|\/dev\/shm|[A-Za-z]:\\Users\\[^\\\s]+\\AppData\\Local\\Temp)(?:[/\\][^\s'"`()<>[\]{},;|*]+)?/g;
const BASE = /^(?:(?:\/private)?(?:\/tmp|\/var\/tmp|\/var\/folders\/[^/]+\/[^/]+\/T)|\/dev\/shm|[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp)/;

/** A path as found in prose: a sentence's full stop, a closing colon or quote mark is not part of it. */
function trimmed(path: string): string {
  return path.replace(/[.,:;!?'")\]]+$/, '');
}

/** The temp folder the path lies in, with its first level: "/tmp/codex-scratch" for /tmp/codex-scratch/d/state.js. */
function rootOf(path: string): string | undefined {
  const base = BASE.exec(path)?.[0];
  if (!base) return undefined;
  const first = path.slice(base.length).split(/[/\\]/).find(Boolean);
  return first ? `${base}/${first}` : undefined;
}

const pathsIn = (text: string | undefined) => [...(text ?? '').matchAll(TEMP_PATH)].map((m) => trimmed(m[0]));

/** Everything the consultee wrote that the record keeps. */
function consulteeWords(state: DeliberationState): string[] {
  return [
    ...state.points.flatMap((p) => [p.text, claimText(p), p.defense]),
    ...state.challenges.flatMap((c) => [c.defense, c.narrowedClaim, c.answerOwnWords]),
    state.stressTest.objection,
    ...(state.readings ?? []).flatMap((r) => r.pending.map((p) => p.text)),
  ].filter((t): t is string => !!t);
}

export type ScratchNeutraliser = (text: string) => string;

/**
 * One function for every boundary (the arbiter's prompt, the report's claims, the summary): it replaces each
 * path under a consultee scratch folder by what it is, `who` saying whose ("the consultee's", "the author's").
 */
export function scratchPaths(state: DeliberationState, who = "the consultee's"): ScratchNeutraliser {
  const userSaid = [state.question, state.material, ...state.ledger.filter((f) => f.tag === 'user').map((f) => f.text)].flatMap(pathsIn);
  const usersRoots = new Set(userSaid.map(rootOf));
  const roots = new Set(consulteeWords(state).flatMap(pathsIn).map(rootOf).filter((r): r is string => !!r && !usersRoots.has(r)));
  if (!roots.size) return (text) => text;
  return (text) =>
    text.replace(TEMP_PATH, (found) => {
      const path = trimmed(found);
      const root = rootOf(path);
      if (!root || !roots.has(root)) return found;
      const name = path.split(/[/\\]/).filter(Boolean).at(-1) ?? path;
      const kind = /\.[A-Za-z0-9]+(?::\d+(?:-\d+)?)?$/.test(name) ? 'file' : 'folder';
      return `<${who} scratch ${kind} ${name}>${found.slice(path.length)}`;
    });
}
