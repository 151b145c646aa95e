import type { AgreedItem, Challenge, ClaimType, DeliberationState, Fact, Point } from '../../../schemas/argumentation.js';

/**
 * The one place ids are read. An id is normalised before it is looked up ("f2", "F02", "F 2", "Ｆ２" and
 * "F٢" are all F2; "p3.2", "P03.2" are P3.2), so no spelling can slip past a check the canonical id
 * meets; then it resolves against the state, with the provenance it has there.
 */

/** Letters that read as P (Cyrillic, Greek): an id spelled with one must not pass for another id. */
const LOOKALIKE: Record<string, string> = { Р: 'P', р: 'p', Ρ: 'P', ρ: 'p' };

/** The value of any decimal digit: Unicode keeps each script's digits as a run of ten starting at zero. */
function digitValue(digit: string): string {
  let cp = digit.codePointAt(0)!;
  let value = 0;
  while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
    cp -= 1;
    value += 1;
  }
  return String(value % 10);
}

/** Text as a reader sees it: compatibility forms folded (fullwidth, superscripts), invisible marks gone, every digit ASCII. */
export function foldText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[^ -~\s]/gu, (ch) => LOOKALIKE[ch] ?? (/\p{Nd}/u.test(ch) ? digitValue(ch) : ch));
}

const FACT_ID = /^F\s*0*(\d+)$/i;
const POINT_ID = /^P\s*0*(\d+)\s*\.\s*0*(\d+)$/i;
const CHALLENGE_ID = /^C\s*0*(\d+)$/i;

// Canonical ids as the engine writes them: the common case, matched before any folding.
const CANONICAL = /^(?:F[1-9]\d*|P[1-9]\d*\.[1-9]\d*|C[1-9]\d*)$/;

export function normaliseFactId(raw: string): string | undefined {
  if (CANONICAL.test(raw)) return raw.startsWith('F') ? raw : undefined;
  const m = FACT_ID.exec(foldText(raw).trim());
  return m ? `F${m[1]}` : undefined;
}

export function normalisePointId(raw: string): string | undefined {
  if (CANONICAL.test(raw)) return raw.startsWith('P') ? raw : undefined;
  const m = POINT_ID.exec(foldText(raw).trim());
  return m ? `P${m[1]}.${m[2]}` : undefined;
}

export function normaliseChallengeId(raw: string): string | undefined {
  if (CANONICAL.test(raw)) return raw.startsWith('C') ? raw : undefined;
  const m = CHALLENGE_ID.exec(foldText(raw).trim());
  return m ? `C${m[1]}` : undefined;
}

/** Any fact, point or challenge id in its canonical form; anything else as written. */
export function normaliseId(raw: string): string {
  return normaliseFactId(raw) ?? normalisePointId(raw) ?? normaliseChallengeId(raw) ?? raw;
}

export function resolveFact(state: DeliberationState, raw: string): Fact | undefined {
  const id = normaliseFactId(raw);
  return id ? state.ledger.find((f) => f.id === id) : undefined;
}

export function resolvePoint(state: DeliberationState, raw: string): Point | undefined {
  const id = normalisePointId(raw);
  return id ? state.points.find((p) => p.id === id) : undefined;
}

export function resolveChallenge(state: DeliberationState, raw: string): Challenge | undefined {
  const id = normaliseChallengeId(raw);
  return id ? state.challenges.find((c) => c.id === id) : undefined;
}

/** An id found in free text: as written (after folding) and canonical. */
export interface Cited {
  written: string;
  id: string;
}

const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_])';
const EDGE_AFTER = '(?![\\p{L}\\p{N}_])';
// A fact id is not part of a file or path name: "f600.ndjson", "/tmp/f12/" name files, "F9." ends a sentence.
const FACT_IN_TEXT = new RegExp(`(?<![\\p{L}\\p{N}_./\\\\])F\\s?0*(\\d+)(?![\\p{L}\\p{N}_/\\\\]|\\.[\\p{L}\\p{N}])`, 'giu');
const POINT_IN_TEXT = new RegExp(`${EDGE_BEFORE}P\\s?0*(\\d+)\\s?\\.\\s?0*(\\d+)${EDGE_AFTER}`, 'giu');

function cited(text: string | undefined, pattern: RegExp, id: (m: RegExpMatchArray) => string): Cited[] {
  if (!text) return [];
  const seen = new Map<string, Cited>();
  for (const m of foldText(text).matchAll(pattern)) if (!seen.has(id(m))) seen.set(id(m), { written: m[0], id: id(m) });
  return [...seen.values()];
}

/** Fact ids cited in free text, each once. */
export const factIdsIn = (text: string | undefined): Cited[] => cited(text, FACT_IN_TEXT, (m) => `F${m[1]}`);

/** Point ids cited in free text, each once. */
export const pointIdsIn = (text: string | undefined): Cited[] => cited(text, POINT_IN_TEXT, (m) => `P${m[1]}.${m[2]}`);

const CONSULTEE = '(?:codex|gpt[\\w.-]*|the consultee|consultee|the other model)';
// Attribution, not description: "Codex said", "as Codex verified", "per Codex"; "Codex runs in a sandbox" (a quoted doc) is not one.
const SAID = new RegExp(
  `\\b${CONSULTEE}(?:'s)?(?:\\s+(?:has|had|have|already|itself|also|just))*\\s+(?:said|says|stated|states|claim(?:s|ed)?|verified|confirmed|reported|wrote|writes|answered|replied|agreed|argued|cited|quoted|found|showed|measured|tested|checked|ran|pointed out)\\b` +
    `|\\b(?:according to|as per|per)\\s+${CONSULTEE}\\b`,
  'i',
);

/** "Codex said so", "as Codex verified", "per the consultee": the consultee's word offered as a source. */
export function consulteeWord(text: string | undefined): string | undefined {
  return text ? SAID.exec(foldText(text))?.[0] : undefined;
}

/** What a cited id lacks to support a claim or a verification; undefined when it is an active user or verified fact. */
export function factSupportGap(state: DeliberationState, id: string): string | undefined {
  const fact = resolveFact(state, id);
  if (!fact) return `${id} names no fact (the ledger has ${state.ledger.length ? `F1..F${state.ledger.length}` : 'none yet'})`;
  if (fact.refuted) return `${fact.id} was refuted`;
  if (fact.supersededBy) return `${fact.id} is superseded by ${fact.supersededBy}`;
  if (fact.tag !== 'user' && fact.tag !== 'verified') return `${fact.id} is not a user or verified fact (it is ${fact.tag})`;
  return undefined;
}

const POINT_LIST = 'P\\s?\\d+\\s?\\.\\s?\\d+(?:\\s*(?:,|and|&)\\s*P\\s?\\d+\\s?\\.\\s?\\d+)*';
// "(see P1.2)", "(cf. P1.2, P1.4)", "; see P1.2": a pointer to a point beside the evidence, not the evidence's source.
const POINTER = new RegExp(
  `\\(\\s*(?:see(?: also)?|cf\\.?|compare|also|as in|like|unlike|vs\\.?|re:?|about|on)\\s+${POINT_LIST}\\s*\\)|[,;—–]\\s*(?:see(?: also)?|cf\\.?|compare)\\s+${POINT_LIST}(?=\\s*(?:[.;,)]|$))`,
  'giu',
);
// What a check looks like: a command or its output, a path:line, a quote, a link, a fact id.
const CHECKED = /`[^`\n]+`|^\s*\$\s|->|→|=>|\bexit(?:ed)?(?: code)? \d|[\w./-]+\.[a-z]{1,5}:\d+|https?:\/\/|"[^"\n]{3,}"|“[^”\n]{3,}”|\bF\d+\b/imu;

/** The point ids a text rests on: all it names, save those only pointed to beside a check of its own. */
function pointsRestedOn(text: string | undefined): Cited[] {
  if (!text) return [];
  const folded = foldText(text);
  const rest = folded.replace(POINTER, ' ');
  return pointIdsIn(rest !== folded && CHECKED.test(rest) ? rest : folded);
}

/**
 * Why a source the orchestrator cites (evidence, a premise, a reference) is the consultee's word, or
 * undefined. Only ids of the deliberation's own points count: "p99.9" in a latency figure names none.
 */
export function consulteeSource(state: DeliberationState, text: string | undefined): string | undefined {
  const point = pointsRestedOn(text).find((cited) => resolvePoint(state, cited.id));
  if (point) return `${point.id} is a point: the consultee's word`;
  const said = consulteeWord(text);
  return said ? `"${said}" is the consultee's word` : undefined;
}

export interface EvidenceCitation {
  claimType: ClaimType;
  evidence?: string;
  premises?: string[];
}

/**
 * Every way the ids an Agreed claim rests on fail to resolve: each fact id must name a fact (and for an
 * empirical or logical claim an active user or verified one); a point id or the consultee's word is
 * never evidence nor a premise. Returns the problems, one sentence each, and the premises canonical.
 */
export function evidenceProblems(state: DeliberationState, input: EvidenceCitation): { problems: string[]; premises: string[] } {
  const problems: string[] = [];
  const inText = factIdsIn(input.evidence).map((c) => c.id);
  if (input.claimType === 'value') {
    for (const id of inText) if (!resolveFact(state, id)) problems.push(factSupportGap(state, id)!);
    return { problems, premises: [] };
  }
  const source = consulteeSource(state, input.evidence);
  if (source) problems.push(source);
  if (input.claimType === 'empirical') {
    for (const id of inText) {
      const gap = factSupportGap(state, id);
      if (gap) problems.push(gap);
    }
    return { problems, premises: [] };
  }
  const premises: string[] = [];
  for (const raw of input.premises ?? []) {
    const id = normaliseFactId(raw);
    if (id) premises.push(id);
    else problems.push(normalisePointId(raw) ? `${normalisePointId(raw)} is a point, not a ledger fact` : `"${raw}" is not a fact id`);
  }
  const all = [...new Set([...premises, ...inText])];
  for (const id of all) {
    const gap = factSupportGap(state, id);
    if (gap) problems.push(gap);
  }
  return { problems, premises: all };
}

/** Agreed items whose evidence no longer holds on the ledger as it now stands (a fact refuted or superseded since). */
export function staleAgreed(state: DeliberationState): { item: AgreedItem; problems: string[] }[] {
  return state.buckets.agreed
    .filter((item) => item.claimType !== 'value')
    .map((item) => ({ item, problems: evidenceProblems(state, item).problems }))
    .filter((x) => x.problems.length);
}

/** Text compared as cited: folded, ids canonical, spacing ignored (re-sending "f3" for "F3" is no new evidence). */
export function citationKey(text: string | undefined): string {
  return foldText(text ?? '')
    .replace(POINT_IN_TEXT, (_m, a: string, b: string) => `P${a}.${b}`)
    .replace(FACT_IN_TEXT, (_m, a: string) => `F${a}`)
    .replace(/\s+/g, ' ')
    .trim();
}
