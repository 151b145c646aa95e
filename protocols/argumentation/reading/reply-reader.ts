import type { NumberNotPoint } from '../../../schemas/argumentation.js';
import type { ReadAnswer, ReadPoint, ReadSection, Reading } from './reading.js';
import { answerKind, answerRefs, idsIn, loneConcessions, mentionsIn, narrowedClaim, sharedKind, undress } from './reply-answers.js';
import { splitAdditions } from './reply-additions.js';
import { splitBlocks, type Block } from './reply-blocks.js';
import { continuesAnswer, statesWhatIsKept } from './reply-items.js';
import { countLabels, firstLabel } from './reply-labels.js';
import { supersededIn } from './reply-versions.js';
import {
  isClosing,
  isLeadIn,
  isNewItem,
  isNothingFurther,
  isOffer,
  isOtherTitle,
  isQuestionsLead,
  isQuestionsTitle,
  mentionsNothingFurther,
  onlyNothingFurther,
  askedAsPoint,
  questionsIn,
  sentences,
} from './reply-paragraphs.js';

export interface ReadContext {
  /** Quick mode: objections are answered by point id ("Re P1.3: ..."), there are no challenge ids. */
  quick?: boolean;
  /** The iteration the reply answers: a model may number its points by their ids ("P3.1 — ..."). */
  iteration?: number;
}

interface Part {
  type: 'headline' | 'point' | 'answer' | 'section' | 'questions';
  lines: string[];
  number?: number;
  refs?: string[];
  title?: string;
  /** section: 'other' holds its own numbered lists (a rollout), 'neutral' lets points follow. */
  scope?: 'other' | 'neutral' | 'closing';
  questions?: string[];
  /** point: opened by a heading ("### 2. Title"), so it runs to the next heading. */
  headed?: boolean;
  /** The last number of a numbered list of its own (steps under a point or a rollout), and its marker style. */
  subNumber?: number;
  subStyle?: string;
  /** point: its marker style ("." ")" "**."...). */
  style?: string;
  /** answer: its numbered items, each read as a point of its own, and the answer's words outside them. */
  items?: Item[];
  own?: string[];
  /** answer: itself an item of the reply's numbered list, so the unmarked items after it may go on with it. */
  listed?: boolean;
}

interface Item {
  number: number;
  style?: string;
  lines: string[];
  /** The last number of a list of the item's own (steps under it). */
  subNumber?: number;
}

const VERIFICATION_CLAIM = /\b(?:I (?:ran|tested|measured|checked|verified|confirmed|benchmarked|grepped|reproduced)|verified|confirmed by)\b/i;

/** Reads one consultee reply the way a careful human reader would (see reading.ts for what each part means). */
export function readReply(text: string, context: ReadContext = {}): Reading {
  const quick = context.quick ?? false;
  const parts: Part[] = [];
  let current: Part | undefined = { type: 'headline', lines: [] };
  parts.push(current);
  let questionScope = false;
  let nothingFurther = false;
  // "Nothing further" lines are read as such, yet an id they name is still listed (see mentionsIn).
  const dropped: string[] = [];
  const notPoints: NumberNotPoint[] = [];
  const open = (part: Part): void => {
    parts.push(part);
    current = part;
  };
  const append = (part: Part, block: Block, numbered = false): void => {
    if (block.blankBefore && part.lines.length > 0) part.lines.push('');
    part.lines.push(...block.lines);
    if (part.type === 'answer') appendToAnswer(part, block, numbered);
  };
  const inHeadline = (): boolean => parts.length === 1;

  const blocks = splitBlocks(text, quick, context.iteration);
  const ahead = structureAhead(blocks, quick);
  for (const [i, block] of blocks.entries()) {
    const body = block.lines.join('\n');
    if (block.kind !== 'fence' && mentionsNothingFurther(body)) nothingFurther = true;
    if (current && block.indent >= 2 && block.kind !== 'heading' && block.kind !== 'answer') {
      append(current, block);
      continue;
    }
    if (block.kind === 'heading') {
      const title = block.title ?? '';
      const refs = answerRefs(title, quick);
      questionScope = false;
      if (refs.length > 0) open({ type: 'answer', refs, lines: [title], own: [title] });
      else if (isQuestionsTitle(title)) {
        questionScope = true;
        open({ type: 'questions', title, lines: [], questions: [] });
      } else open({ type: 'section', title, scope: isOtherTitle(title) ? 'other' : 'neutral', lines: [] });
      continue;
    }
    if (block.kind === 'answer') {
      open({ type: 'answer', refs: block.refs ?? [], lines: block.lines, own: [...block.lines] });
      continue;
    }
    if (block.kind === 'numbered') {
      const rest = block.rest ?? '';
      const refs = answerRefs(rest, quick);
      const item = [rest, ...block.lines.slice(1)];
      // "2. No further points. My final position is ..." closes the reply: a restatement, not a new point.
      if (refs.length === 0 && isNothingFurther(sentences(rest.replace(/[*_`]/g, ''))[0] ?? '')) {
        notPoints.push({ number: block.number ?? 0, as: 'nothing-further' });
        if (onlyNothingFurther(item.join('\n'))) {
          dropped.push(item.join('\n'));
          current = undefined;
        }
        else open({ type: 'section', title: '', scope: 'closing', lines: item });
        continue;
      }
      if (refs.length > 0) {
        open({ type: 'answer', refs, lines: item, own: [...item], listed: true });
        notPoints.push({ number: block.number ?? 0, as: 'answer', refs });
      } else if (isNewItem(rest) && !questionScope) open({ type: 'point', number: block.number, headed: block.headed, style: block.style, lines: item });
      else if (current?.type === 'questions' && questionScope) {
        current.questions?.push(itemText([rest, ...block.lines.slice(1)]));
        notPoints.push({ number: block.number ?? 0, as: 'question' });
      }
      else if (current && holdsList(current, block)) {
        append(current, block, true);
        current.subNumber = block.number;
        current.subStyle = block.style;
      }
      else if (current?.type === 'answer' && current.listed && !block.headed && continuesAnswer((current.own ?? []).join('\n'), current.refs ?? [], item.join('\n'), quick)) append(current, block, true);
      else open({ type: 'point', number: block.number, headed: block.headed, style: block.style, lines: [rest, ...block.lines.slice(1)] });
      continue;
    }
    if (onlyNothingFurther(body)) {
      dropped.push(body);
      current = undefined;
      continue;
    }
    if (inHeadline() && current) {
      append(current, block);
      continue;
    }
    if (current?.type === 'questions' && questionScope) {
      const asked = block.kind === 'para' ? questionsIn(body) : items(block.lines);
      if (asked.length > 0) {
        current.questions?.push(...asked);
        continue;
      }
    }
    // "New: ..." after an answer is not part of it: a paragraph of its own for the orchestrator to read.
    if (current?.type === 'answer' && block.kind === 'para' && isNewItem(body)) {
      open({ type: 'section', title: '', scope: 'closing', lines: block.lines });
      continue;
    }
    if (block.kind === 'para' && block.blankBefore) {
      if (isQuestionsLead(block.lines[0] ?? '')) {
        questionScope = true;
        open({ type: 'questions', lines: [], questions: items(block.lines.slice(1)) });
        continue;
      }
      // Between points only a paragraph of nothing but questions is taken for questions to the user.
      const asked = ahead[i] && !sentences(body).every((x) => /\?\W*$/.test(x)) ? [] : questionsIn(body);
      if (asked.length > 0) {
        if (current?.type === 'questions') current.questions?.push(...asked);
        else open({ type: 'questions', lines: [], questions: asked });
        continue;
      }
      if (isOffer(body) || isClosing(body)) {
        open({ type: 'section', title: '', scope: 'closing', lines: block.lines });
        continue;
      }
      if (isLeadIn(body)) {
        // Like a heading over the points that follow: kept with them (see assemble), never a point's tail.
        open({ type: 'section', title: body.trim().replace(/[\s:]+$/, ''), scope: 'neutral', lines: [] });
        continue;
      }
    }
    // After the last point, an unindented paragraph or table stands apart from it, unless the point leads into it.
    const trailing = current?.type === 'point' && !current.headed && block.blankBefore && !ahead[i] && !endsWithColon(current);
    if (current && current.type !== 'questions' && !trailing) append(current, block);
    else open({ type: 'section', title: '', scope: 'closing', lines: block.lines });
  }
  return assemble(text, parts, nothingFurther, quick, dropped, notPoints);
}

/** A part that ends with "...:", a rollout section or a point with a list of its own owns the numbered list under it. */
function holdsList(part: Part, block: Block): boolean {
  // Steps under "## Suggested rollout" carry no labels; labeled items there are still points.
  if (part.type === 'section' && part.scope === 'other') return !labeled(block);
  if (part.type === 'point' && !block.headed) return pointHoldsList(part, block, block.number ?? 0);
  if (part.subNumber !== undefined && !block.headed && block.number === part.subNumber + 1) return true;
  return part.type !== 'headline' && part.type !== 'questions' && endsWithColon(part);
}

/**
 * An answer's numbered items are claims of their own (read as points with partOf); what else it holds
 * is its own words. A block indented under an item, or a list restarting inside one, belongs to that item.
 */
function appendToAnswer(part: Part, block: Block, numbered: boolean): void {
  const items = (part.items ??= []);
  const last = items.at(-1);
  const lines = numbered ? [block.rest ?? '', ...block.lines.slice(1)] : block.lines;
  if (numbered && block.number !== undefined && !(last && stepOf(last, block))) {
    items.push({ number: block.number, style: block.style, lines });
    return;
  }
  if (last && (numbered || block.indent >= 2)) {
    if (block.blankBefore) last.lines.push('');
    last.lines.push(...block.lines);
    if (numbered) last.subNumber = block.number;
    return;
  }
  const own = (part.own ??= []);
  if (block.blankBefore && own.length > 0) own.push('');
  own.push(...block.lines);
}

/** Whether a numbered block continues a list inside the item rather than starting the answer's next item. */
function stepOf(item: Item, block: Block): boolean {
  const number = block.number ?? 0;
  if (item.subNumber !== undefined && number === item.subNumber + 1) return true;
  return block.style !== item.style || number <= item.number;
}

/** Whether item `number` is a step of the point's own list rather than the next point. */
function pointHoldsList(part: Part, block: Block, number: number): boolean {
  const own = part.number ?? 0;
  const next = own + 1;
  const continues = part.subNumber !== undefined && number === part.subNumber + 1;
  // Both the list's next step and the next point: the marker decides; else a label or a blank line makes it the point.
  if (continues && number === next) return part.subStyle !== part.style ? block.style === part.subStyle : !block.blankBefore && !labeled(block);
  if (continues) return true;
  // "### 2. Title" then "3. ..." is the next point, any other number a step inside point 2.
  if (part.headed) return number !== next;
  // A list restarting (or going back) inside a point is its own list: "2. Steps: 1) ... 2) ...". "1." under "1."
  // in the same style, labeled or after a blank line, is Markdown's auto-numbering of the points themselves.
  if (number < own || (number === own && (block.style !== part.style || (!block.blankBefore && !labeled(block))))) return true;
  return endsWithColon(part);
}

const labeled = (block: Block): boolean => firstLabel(block.lines.join('\n')) !== undefined;

function endsWithColon(part: Part): boolean {
  const last = part.lines.filter((l) => l.trim()).at(-1) ?? '';
  return /:\s*\**\s*$/.test(last);
}

/** For each block: whether a point or an answer comes later, before any heading. */
function structureAhead(blocks: Block[], quick: boolean): boolean[] {
  const out: boolean[] = [];
  let seen = false;
  for (let i = blocks.length - 1; i >= 0; i -= 1) {
    out[i] = seen;
    const block = blocks[i];
    if (block?.kind === 'heading') seen = answerRefs(block.title ?? '', quick).length > 0;
    else if (block?.kind === 'numbered' || block?.kind === 'answer') seen = true;
  }
  return out;
}

function items(lines: string[]): string[] {
  const out: string[][] = [];
  for (const line of lines) {
    if (/^\s{0,1}(?:[-*+]|\d{1,3}[.)])\s/.test(line) || out.length === 0) out.push([line]);
    else out.at(-1)?.push(line);
  }
  return out.map(itemText);
}

function itemText(lines: string[]): string {
  return lines
    .map((l) => l.trim())
    .join(' ')
    .replace(/^(?:[-*+]|\d{1,3}[.)])\s+/, '')
    .trim();
}

function assemble(text: string, parts: Part[], nothingFurther: boolean, quick: boolean, dropped: string[], notPoints: NumberNotPoint[]): Reading {
  const points: ReadPoint[] = [];
  const byRef = new Map<string, { texts: string[]; owns: string[]; shared: boolean; heading?: string; items: number; keeping: string[] }>();
  const sections: ReadSection[] = [];
  const questions: string[] = [];
  let headline: string | undefined;
  // A heading or lead-in with no text of its own heads the points and answers under it; with none, it is a section.
  let group: { title: string; used: boolean } | undefined;
  const closeGroup = (): void => {
    if (group && !group.used) sections.push({ title: group.title, text: '' });
    group = undefined;
  };
  for (const part of parts) {
    const body = part.lines.join('\n').trim();
    if (part.type === 'headline') headline = body || undefined;
    else if (part.type === 'point') {
      const asked = askedAsPoint(body);
      if (asked) {
        questions.push(asked);
        notPoints.push({ number: part.number ?? 0, as: 'question' });
      } else points.push(readPoint(part.number ?? 0, body, group?.title));
      if (group) group.used = true;
    } else if (part.type === 'answer') {
      const own = (part.own ?? part.lines).join('\n').trim();
      for (const ref of part.refs ?? []) {
        const seen = byRef.get(ref) ?? { texts: [], owns: [], shared: false, heading: group?.title, items: 0, keeping: [] };
        const keeping = (part.items ?? []).map((item) => item.lines.join('\n').trim()).filter(statesWhatIsKept);
        byRef.set(ref, { ...seen, texts: [...seen.texts, body], owns: [...seen.owns, own], shared: seen.shared || (part.refs?.length ?? 0) > 1, items: seen.items + (part.items?.length ?? 0), keeping: [...seen.keeping, ...keeping] });
      }
      // The items belong to the first id the answer names (an answer to "C1 and C2" is filed under C1).
      const of = part.refs?.[0];
      for (const item of part.items ?? []) points.push({ ...readPoint(item.number, item.lines.join('\n').trim(), group?.title), ...(of ? { partOf: of } : {}) });
      if (group) group.used = true;
    } else if (part.type === 'questions') {
      closeGroup();
      questions.push(...(part.questions ?? []));
      if (!part.questions?.length && part.title) sections.push({ title: part.title, text: '' });
    } else if (!body && part.title) {
      closeGroup();
      group = { title: part.title, used: false };
    } else if (body) {
      closeGroup();
      sections.push({ title: part.title ?? '', text: body });
    }
  }
  closeGroup();
  const answers: ReadAnswer[] = [];
  for (const [ref, { texts, owns, shared, heading, items, keeping }] of byRef) {
    const body = texts.join('\n\n');
    const own = owns.join('\n\n');
    // The answer's own words say how it answers; its items only when it has hardly any words of its own.
    const said = words(undress(own).replace(/^.*?\b(?:re|on|to)?\s*[CP]\d+(?:\.\d+)?\W*/i, '')) >= 3 ? own : body;
    const read = shared ? sharedKind(ref, said, quick) : answerKind(said);
    // An item that says what the answer keeps ("2. INFERENCE — I keep the verdict: ...") makes it a partial concession.
    const kind = keeping.length > 0 && (read === 'concession' || read === 'unclear') ? 'partial-concession' : read;
    const label = firstLabel(own) ?? firstLabel(body);
    // New content in an answer that gives something up is no part of what it keeps (a defense may elaborate as it likes).
    const { kept, added } = kind === 'defense' ? { kept: said, added: [] } : splitAdditions(said);
    const narrowed = kind === 'partial-concession' || kind === 'unclear' ? (narrowedClaim(kept) ?? keptInItems(keeping)) : undefined;
    answers.push({
      ref,
      kind,
      text: body,
      own,
      ...(narrowed ? { narrowedClaim: narrowed } : {}),
      ...(added.length ? { added } : {}),
      ...(kind === 'partial-concession' && !narrowed && items > 0 && /:\s*\**\s*$/.test(own) ? { keptByItems: true } : {}),
      ...(label ? { label } : {}),
      ...(heading ? { heading } : {}),
    });
  }
  const elsewhere = [headline ?? '', ...points.filter((p) => !p.partOf).map((p) => p.text), ...sections.map((s) => s.text)];
  for (const chunk of elsewhere) {
    for (const ref of loneConcessions(chunk, quick)) {
      if (answers.some((a) => a.ref === ref)) continue;
      const said = sentences(chunk).find((s) => s.includes(ref)) ?? chunk;
      answers.push({ ref, kind: 'concession', text: said, own: said });
    }
  }
  const headings = [...points, ...answers].map((x) => x.heading ?? '');
  const chunks = [headline ?? '', ...headings, ...sections.map((s) => `${s.title}\n${s.text}`), ...questions, ...answers.map((a) => a.text), ...dropped];
  const mentions = mentionsIn(chunks, new Set(answers.map((a) => a.ref)), quick);
  const numbersNotPoints = notPoints.sort((a, b) => a.number - b.number);
  return { ...(headline ? { headline } : {}), points, answers, numbersNotPoints, nothingFurther, questions, sections, mentions, labels: countLabels(text) };
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length;

const keptInItems = (items: string[]): string | undefined => items.map((item) => narrowedClaim(item)).find(Boolean);

function readPoint(number: number, text: string, heading?: string): ReadPoint {
  const label = firstLabel(text);
  const pointRefs = [...new Set([...text.matchAll(/\bP\d+\.\d+\b/g)].map((m) => m[0]))];
  const factRefs = [...new Set([...text.matchAll(/\bF\d+\b/g)].map((m) => m[0]))];
  const supersedes = supersededIn(text);
  return {
    number,
    text,
    ...(heading ? { heading } : {}),
    ...(label ? { label } : {}),
    pointRefs,
    ...(factRefs.length ? { factRefs } : {}),
    challengeMentions: idsIn(text, false),
    unlabeledVerification: !label && VERIFICATION_CLAIM.test(text),
    ...(supersedes.length ? { supersedes } : {}),
  };
}
