import type { AgreedItem, DeliberationState, DismissedItem, Fact, UnresolvedItem } from '../../../schemas/argumentation.js';
import { rerunParts } from '../core/rerun-evidence.js';
import { bucketClaims, refText, type ClaimEntry } from './claim-record.js';
import { deliberationChanges, type Change, type Objection } from './changes.js';
import { plainWords, wholeSentenceGist } from './plain-words.js';

/**
 * The deliberation's claims in words the user can read, one line each: what was agreed and who checked
 * it how, what Codex changed, what was ruled out, what stays open, what only the user can answer, the
 * caveats, the reviewer's flags. No ids, paths, labels or sentences cut in the middle. The answer brief
 * shows them within its budget; the decision record states them all.
 */
export interface PlainLines {
  turnsOn: string[];
  changed: string[];
  ruledOut: string[];
  open: string[];
  askUser: string[];
  caveats: string[];
  reviewer?: string[];
}

/** A claim: its first whole sentences, up to about this many characters. */
const CLAIM_CHARS = 220;
/** Evidence and reasons: the sentences that say what was run or read. */
const GROUND_CHARS = 240;

/** A claim kept as the items Codex numbered ("as stated in P3.1, P3.2") is those items' words. */
function ownWords(state: DeliberationState, text: string): string {
  const ids = /^as stated in (P\d+\.\d+(?:, P\d+\.\d+)*)$/.exec(text)?.[1]?.split(', ');
  return ids ? ids.map((id) => refText(state, id)).join('\n') : text;
}

/** A claim's gist: its headline line (and the next when the headline is a bare title), in plain words. */
export function gist(state: DeliberationState, raw: string, max = CLAIM_CHARS): string {
  const text = ownWords(state, raw);
  // The headline lines before any code: a claim's code is stated whole in the record, never half here.
  const fence = text.search(/^\s*(?:```|~~~)/m);
  const lines = (fence >= 0 ? text.slice(0, fence) : text).split('\n').map((l) => l.replace(/^\s*[-*]\s+/, '').trim()).filter(Boolean);
  let head = lines[0] ?? '';
  for (const line of lines.slice(1)) {
    if (plainWords(state, head).length >= 60) break;
    head = `${head} ${line}`;
  }
  const words = wholeSentenceGist(plainWords(state, head), max);
  if (!/:$/.test(words)) return words;
  // "... keep the API on string ids. Concrete changes:" and "... 5 s. The run says otherwise:" end where
  // what they introduce begins; it is stated whole, code and all, in the full record.
  const lead = words.replace(/(?<=[.!?]["')]?)\s+[^.!?]*:$/, '');
  if (lead !== words) return lead;
  return /```|^ {4}\S/m.test(text) ? `${words} (the code is in the full record)` : `${words} (the rest is in the full record)`;
}

const quoted = (s: string) => `"${s.replace(/"/g, "'")}"`;

function factWords(state: DeliberationState, id: string): string | undefined {
  const fact: Fact | undefined = state.ledger.find((f) => f.id === id);
  if (!fact) return undefined;
  const who = fact.tag === 'user' ? 'the user said' : fact.tag === 'verified' ? 'the orchestrator verified' : 'noted';
  return `${who} ${quoted(gist(state, fact.text, GROUND_CHARS))}`;
}

/** Who checked an agreed claim, and how, in a few plain words and the evidence's own first sentences. */
function howChecked(state: DeliberationState, item: AgreedItem, claim: string): string {
  const evidence = item.evidence ? gist(state, item.evidence, GROUND_CHARS) : '';
  // Evidence the claim already quotes ("(src/db/tx.ts:18 ...)") is said once.
  if (evidence && claim.includes(evidence)) return item.evidenceType === 'textual' ? 'the orchestrator read it there' : 'the orchestrator ran it';
  const cited = (item.evidence?.match(/\bF\d+\b/g) ?? []).map((id) => factWords(state, id)).filter(Boolean);
  if (item.rerun) return `Codex ran a check and the orchestrator re-ran it: ${rerunSeen(state, item.evidence ?? '') ?? evidence}`;
  if (item.claimType === 'value') return `a value judgment: ${gist(state, item.reason, GROUND_CHARS)}`;
  if (item.claimType === 'logical') {
    const premises = (item.premises ?? []).map((id) => factWords(state, id)).filter(Boolean);
    return `follows from what ${premises.join('; and ') || 'the ledger holds'}`;
  }
  if (cited.length && evidence.replace(/[^a-z]/gi, '').length < 40) return `the orchestrator checked it: ${cited.join('; ')}`;
  const how = item.evidenceType === 'textual' ? 'the orchestrator read it in' : "the orchestrator's own run";
  return `${how}: ${evidence}`;
}

/** What the orchestrator saw on re-running Codex's check, when the evidence beside it only names facts ("F3 (re-run: same output: ...)"). */
function rerunSeen(state: DeliberationState, evidence: string): string | undefined {
  const parts = rerunParts(evidence);
  if (!parts) return undefined;
  const ids = parts.cited.match(/\bF\d+\b/g) ?? [];
  const onlyIds = parts.cited.replace(/\bF\d+\b|[\s,;&]|\band\b/g, '') === '';
  return onlyIds && ids.every((id) => state.ledger.some((f) => f.id === id)) ? gist(state, parts.seen, GROUND_CHARS) : undefined;
}

const sentenceEnd = (s: string) => (/[.!?]["')]?$/.test(s) ? s : `${s}.`);

function agreedLine(state: DeliberationState, e: ClaimEntry<AgreedItem>, defended: Set<string>): string {
  const claim = gist(state, e.text);
  const checked = howChecked(state, e.item, claim);
  return defended.has(e.point.id) ? `${claim} — ${sentenceEnd(checked)} It held up against an objection.` : `${claim} — ${checked}`;
}

const DISMISSED_WHY: Partial<Record<DismissedItem['tag'], string>> = {
  CONCEDED: 'Codex gave it up',
  UNDEFENDED: 'Codex did not defend it',
  REJECTED: 'shown wrong',
  FALSE: 'shown false',
  RISKY: 'too risky',
  'VIOLATES-CONSTRAINT': "breaks the user's constraints",
};

function ruledOutLine(state: DeliberationState, e: ClaimEntry<DismissedItem>): string {
  return `${gist(state, e.text)} — ${DISMISSED_WHY[e.item.tag] ?? 'set aside'}: ${gist(state, e.item.reason, GROUND_CHARS)}`;
}

function openLine(state: DeliberationState, e: ClaimEntry<UnresolvedItem>): string {
  const u = e.item;
  const settle = u.measurement ? ` To settle it, measure ${plainWords(state, u.measurement)}${u.threshold ? ` (it matters at ${plainWords(state, u.threshold)})` : ''}.` : '';
  return `${gist(state, e.text)} — open: ${gist(state, u.crux, GROUND_CHARS)}${settle}`;
}

function because(state: DeliberationState, o: Objection | undefined): string {
  if (!o) return '';
  const evidence = o.evidence ? `, on the evidence of ${gist(state, o.evidence, GROUND_CHARS)}` : '';
  return ` after the orchestrator objected ${quoted(gist(state, o.flaw, GROUND_CHARS))}${evidence}`;
}

const ENDED: Record<NonNullable<Change['ended']>, string> = { agreed: 'agreed', dismissed: 'ruled out', unresolved: 'left open' };

/** A new version that says what the first did, once labels and ids are gone (a relabelled claim), changed nothing the user reads. */
const saysTheSame = (state: DeliberationState, c: Change) => c.after !== undefined && gist(state, c.before.text) === gist(state, c.after.text);

function changeLine(state: DeliberationState, c: Change): string {
  const before = quoted(gist(state, c.before.text));
  const after = c.after ? quoted(gist(state, c.after.text)) : '';
  const ended = c.ended && c.kind !== 'conceded' ? ` (${ENDED[c.ended]})` : '';
  switch (c.kind) {
    case 'replaced':
      return `Codex first said ${before}; it changed this${because(state, c.objection)}, and now says ${after}${ended}.`;
    case 'conceded':
      return `Codex gave up ${before}${because(state, c.objection)}.`;
    case 'narrowed':
      return `Codex narrowed ${before} to ${after}${because(state, c.objection)}${ended}.`;
    case 'agreed-narrower':
      return `Codex wrote ${before}; it was agreed only as ${after}.`;
  }
}

function reviewerLines(state: DeliberationState): string[] | undefined {
  const arb = state.arbitration;
  if (!arb) return undefined;
  const flagged = arb.items.filter((i) => i.flagged);
  return [
    `a fresh reviewer flagged ${flagged.length} of ${arb.items.length} placements`,
    ...flagged.map((i) => `flagged ${quoted(gist(state, refText(state, i.ref), 0))}: ${i.note ? gist(state, i.note, GROUND_CHARS) : 'no reason given'}`),
    ...(arb.remarks?.trim() ? [gist(state, arb.remarks, 2 * GROUND_CHARS)] : []),
  ];
}

export function plainLines(state: DeliberationState): PlainLines {
  const claims = bucketClaims(state);
  const defended = new Set(state.challenges.filter((c) => c.resolution === 'accepted' && !c.partial).map((c) => c.pointId));
  const conceded = new Set(state.buckets.dismissed.filter((i) => i.tag === 'CONCEDED').map((i) => i.pointId));
  const reviewer = reviewerLines(state);
  return {
    turnsOn: claims.agreed.map((e) => agreedLine(state, e, defended)),
    // Codex's moves only: a claim agreed in narrower words is stated so in turnsOn (the record keeps both wordings).
    changed: deliberationChanges(state).filter((c) => c.kind !== 'agreed-narrower' && !saysTheSame(state, c)).map((c) => changeLine(state, c)),
    ruledOut: claims.dismissed.filter((e) => e.item.tag !== 'OUT-OF-SCOPE' && !conceded.has(e.point.id)).map((e) => ruledOutLine(state, e)),
    open: claims.unresolved.filter((e) => e.item.status !== 'pending-anchor-shift').map((e) => openLine(state, e)),
    askUser: state.surfacedQuestions.map((q) => plainWords(state, q.text)),
    caveats: (state.recommendation?.caveats ?? []).filter((c) => c.trim()).map((c) => plainWords(state, c)),
    ...(reviewer ? { reviewer } : {}),
  };
}
