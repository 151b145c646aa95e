import type { DeliberationState, Point } from '../../../schemas/argumentation.js';
import { splitFencedCode, withoutFences } from '../../markdown-blocks.js';
import { claimText, isCurrent, replacedVersions } from '../core/claims.js';
import { findPoint } from '../core/queries.js';
import { BUCKETS, bucketClaims, type BucketName } from './claim-record.js';
import { HISTORY } from './claim-entries.js';

/**
 * Reads a rendered report back against the state: which claims it states as current that are not
 * (a replaced version, an item folded into an answer, or an earlier wording under a current id),
 * which current claims it leaves out of their bucket, and which it states twice. The bench counts
 * them (orchestration.standard.staleReportItems, target 0); a report anyone may trust has none.
 */

export interface StaleReport {
  /** Ids stated as a claim though replaced or folded, or stated with a replaced version's words. */
  replacedShownAsCurrent: string[];
  /** Current claims of a bucket with no item in that bucket's section, or whose item does not say what they now say. */
  missing: string[];
  /** Ids stated as a claim more than once. */
  duplicated: string[];
  count: number;
}

const SECTION = /^## (AGREED|DISMISSED|UNRESOLVED)\b/;
const CLAIM = /^- \*\*(P\d+\.\d+)\*\*/;
/** Lines of an item that are not its claim: its history, and the items folded into its answers (a nested list). */
const NOT_THE_CLAIM = new RegExp(`^\\s+(?:${Object.values(HISTORY).join('|')}|- )`);

/** Markdown read as plain words: escapes undone outside code, fences gone, whitespace collapsed. */
function plainWords(markdown: string): string {
  return splitFencedCode(markdown)
    .map((block) => (block.kind === 'code' ? block.lines.join('\n') : block.lines.join('\n').replace(/\\([!-/:-@[-`{-~])/g, '$1')))
    .join('\n')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A claim as written, read as the same plain words. */
const claimWords = (text: string) => withoutFences(text).replace(/\s+/g, ' ').trim();

/** The opening words of a claim, enough to tell it from another version. */
const opening = (text: string) => claimWords(text).slice(0, 80);

/** Each bucket section's claim items: id, and the item's own lines without its history. */
function statedClaims(markdown: string): { bucket: BucketName; id: string; body: string }[] {
  const out: { bucket: BucketName; id: string; lines: string[] }[] = [];
  let bucket: BucketName | undefined;
  for (const line of markdown.split('\n')) {
    const heading = SECTION.exec(line);
    if (line.startsWith('## ')) bucket = heading ? (heading[1]!.toLowerCase() as BucketName) : undefined;
    if (!bucket) continue;
    const claim = CLAIM.exec(line);
    if (claim) out.push({ bucket, id: claim[1]!, lines: [line.replace(CLAIM, '')] });
    else if (out.length && out.at(-1)!.bucket === bucket && !NOT_THE_CLAIM.test(line)) out.at(-1)!.lines.push(line);
  }
  return out.map(({ bucket: b, id, lines }) => ({ bucket: b, id, body: plainWords(lines.join('\n')) }));
}

/** Earlier wordings of a point: the versions it replaced and, when narrowed, what it narrowed. */
function earlierWordings(state: DeliberationState, point: Point): string[] {
  const current = opening(claimText(point, state));
  return [...(point.narrowed ? [point.text] : []), ...replacedVersions(state, point.id).flatMap((p) => [claimText(p, state), p.text])]
    .map(opening)
    .filter((words) => words && !current.includes(words) && !words.startsWith(current));
}

export function staleReportItems(state: DeliberationState, markdown: string): StaleReport {
  const stated = statedClaims(markdown);
  const replaced = new Set<string>();
  const missing = new Set<string>();
  const seen = new Map<string, number>();
  for (const { id, body } of stated) {
    seen.set(id, (seen.get(id) ?? 0) + 1);
    const point = findPoint(state, id);
    if (point && !isCurrent(point)) replaced.add(id);
    else if (point && earlierWordings(state, point).some((words) => body.includes(words))) replaced.add(id);
  }
  const claims = bucketClaims(state);
  for (const bucket of BUCKETS) {
    for (const e of claims[bucket]) {
      const items = stated.filter((s) => s.bucket === bucket && s.id === e.point.id);
      if (!items.some((s) => s.body.includes(opening(e.text)))) missing.add(e.point.id);
    }
  }
  const duplicated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  return { replacedShownAsCurrent: [...replaced], missing: [...missing], duplicated, count: replaced.size + missing.size + duplicated.length };
}
