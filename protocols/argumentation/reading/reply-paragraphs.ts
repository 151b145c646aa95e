import { sentences as splitSentences } from '../core/queries.js';
import { LEADING_LABEL } from './reply-labels.js';

/** What an unnumbered paragraph outside a point does: the reading rules for closings, offers, questions. */

const NOTHING_FURTHER =
  /^(?:n\/a\s*[—–:-]\s*)?(?:(?:i have|i've|i've got|i (?:don't|do not) have|there(?:'s| is| are)|and)\s+)?(?:(?:nothing|(?:not )?anything) (?:further|more|else|new)\b|nothing (?:to (?:add|defend|report|rebut|answer))\b|(?:no|any) (?:further|new|more|other|additional) (?:points?|arguments?|claims?|comments?|challenges?|additions?|objections?|remarks?|concerns?)\b|no (?:open )?challenges? (?:to answer|to defend|open|remain)\b|that'?s all\b)/i;
// Said around a "nothing further": an acknowledgment or a restatement, never a new claim.
const ACK = /^(?:i agree|agreed|all good|ok(?:ay)?|fine|thanks?(?: you)?|good|understood|noted)$/i;
const STANDING =
  /^(?:i (?:still )?stand by\b[^,;]{0,80}|my (?:earlier |previous |existing |other )?(?:points?|claims?|position) (?:stands?|holds?|remains?)(?: as (?:is|recorded|written|stated))?|(?:the |all )?(?:open |remaining )?challenges (?:have been|are|were) (?:answered|addressed)(?: above)?|the rest (?:stands|holds))$/i;
const BARE_NONE = /^(?:none|n\/a|nil|nothing)$/i;

const CLOSING =
  /^(?:overall|bottom line|tl;?\s?dr|net|net[- ]net|in short|in sum(?:mary)?|summary|to sum(?:marize| up)|to summari[sz]e|all in all|on balance|taken together|putting (?:it|this) together|short version|so overall|verdict|conclusion|in conclusion|my recommendation|final (?:answer|recommendation|verdict|position)|recommendation|where (?:this|that|i) (?:leaves|land)s?|where i land|net effect|the upshot|all told)\b|^(?:(?:my )?(?:take|pick|call|vote)\s*:|so[,:]\s)/i;

const OFFER =
  /^(?:(?:do you |would you |if you )?want me to|(?:shall|should|can|could) i (?:go ahead and )?(?:sketch|draft|write|add|expand|provide|put together|run|produce|turn|share|outline|walk|prepare|generate|make|build|spell out|dig|look|check|compare|estimate|benchmark|prototype|flesh out|code|implement|open|file|create|set up|list|do|follow up|mock up|pull|include)|would (?:it help|you like)|happy to|glad to|i(?:'d| would)? (?:be happy|be glad) to|i can (?:also )?(?:sketch|draft|write|add|expand|provide|put together|run|produce|do|turn|share|outline|walk)|i could (?:also )?(?:sketch|draft|write|add|expand|outline)|if (?:it helps|it(?:'s| is|'d be) (?:useful|helpful)|useful|helpful|you(?:'d)? (?:want|like))|let me know if|want (?:me|the|a)\b)\b/i;

const LEAD_IN =
  /^(?:(?:my |the |new |further |additional |remaining |open |fresh )*(?:points?|arguments?|claims?|answers?|responses?|replies|defen[cs]es?|challenges?|rebuttals?|extensions?|evidence)(?:\s+(?:to|on|for|this|in|below|follow|first|then)\b[^:]*)?|(?:and |now |then )?(?:on to |onto |moving to )?(?:the )?(?:new )?(?:points?|challenges?|answers?)[^:]*)\s*:$/i;

function plain(text: string): string {
  return text.replace(/[*_`]/g, '').replace(/^\s*(?:[-+>]\s*)?/, '').trim();
}

/** The engine's one sentence splitter (no split at "e.g.", decimals, abbreviations), over one line. */
export function sentences(text: string): string[] {
  return splitSentences(text.replace(/\s+/g, ' '));
}

const ONLY_NOTHING_FURTHER = new RegExp(`${NOTHING_FURTHER.source}$`, 'i');

/** "INFERENCE — Nothing further." is the line without its label; "GUESS: Nothing else matters." is a claim. */
function unlabeled(sentence: string): string {
  const rest = sentence.replace(LEADING_LABEL, '');
  return rest !== sentence && ONLY_NOTHING_FURTHER.test(rest) ? rest : sentence;
}

export function isNothingFurther(sentence: string): boolean {
  // "No further points (INFERENCE):" carries a label it does not need.
  const s = unlabeled(plain(sentence).replace(/^\((.*)\)$/, '$1').replace(/\s*[([]\s*(?:evidence|inference|guess)\s*[)\]]\s*:?/i, '').replace(/[.!:\s]+$/, ''));
  if (NOTHING_FURTHER.test(s) && words(s) <= 16) return true;
  // "I agree; no further comments.", "Nothing new from my side — I stand by P3.1 and P3.2 as they are recorded."
  const clauses = s.split(/\s*[;—–]\s*|,\s+(?=(?:i|my|the|nothing|no)\b)/i).filter(Boolean);
  return clauses.some((c) => NOTHING_FURTHER.test(c) && words(c) <= 16) && clauses.every((c) => NOTHING_FURTHER.test(c) || ACK.test(c) || STANDING.test(c));
}

/** Every sentence of the paragraph says there is nothing more ("No further points.", "Nothing to defend."), or "None." alone. */
export function onlyNothingFurther(text: string): boolean {
  const all = sentences(plain(text));
  if (all.length === 1 && BARE_NONE.test(plain(all[0] ?? '').replace(/^\((.*)\)$/, '$1').replace(/[.!\s]+$/, ''))) return true;
  return all.some(isNothingFurther) && all.every((s) => isNothingFurther(s) || STANDING.test(plain(s).replace(/[.!\s]+$/, '')));
}

export function mentionsNothingFurther(text: string): boolean {
  return text.split('\n').some((line) => sentences(plain(line)).some(isNothingFurther)) || onlyNothingFurther(text);
}

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

export function isClosing(text: string): boolean {
  return CLOSING.test(plain(text));
}

export function isOffer(text: string): boolean {
  const last = sentences(plain(text)).at(-1) ?? '';
  return OFFER.test(plain(text)) || (/\?$/.test(last) && OFFER.test(last));
}

/** "New points:" / "Answers to the open challenges:": a bare lead-in that only announces what follows. */
export function isLeadIn(text: string): boolean {
  const t = plain(text);
  return !t.includes('\n') && t.length <= 80 && LEAD_IN.test(t);
}

// The end of the answers, as the format asks for it: "New points:" on a line of its own (bold, a heading, or bare).
const NEW_POINTS = /^(?:(?:new|further|additional|other|standalone|separate)\s+(?:points?|arguments?|claims?|items?)|new)(?:\s*\([^)\n]{0,80}\))?\s*:?$/i;
// An item that says it stands alone: "3. New: ...", "New point — ...", "(new) ...".
// A label may come first: "INFERENCE, new: ...", "INFERENCE (new): ...", "EVIDENCE — New point. ...".
const NEW_ITEM = /^\W*(?:(?:evidence|inference|guess)\b[\s,:.—–-]*)?(?:new(?:,?\s+(?:standalone|separate|independent))?(?:\s+(?:point|argument|claim|item))?\s*[:—–]|new\s+(?:point|argument|claim|item)\.\s|[([]new[)\]])/i;

/** A line that closes every answer above it: what follows answers no challenge or objection. */
export function isNewPointsMark(line: string): boolean {
  return NEW_POINTS.test(plain(line).replace(/^#{1,6}\s+/, ''));
}

/** An item or paragraph that opens by saying it is new: a point of its own, never part of the answer above it. */
export function isNewItem(text: string): boolean {
  return NEW_ITEM.test(plain(text));
}

/** A paragraph that asks the user something: its questions, sentence by sentence; none if it is not one. */
export function questionsIn(text: string): string[] {
  const t = plain(text);
  if (isOffer(t)) return [];
  const all = sentences(t);
  const isAsked = (s: string): boolean => /\?["')*_\s]*$/.test(s);
  if (!all.some(isAsked)) return [];
  // A trailing question paragraph, not prose with a rhetorical question in the middle of it.
  const ends = [all[0] ?? '', all.at(-1) ?? ''];
  if (!ends.some(isAsked) && !/^(?:question|q|open question)s?\s*(?:for you|to you)?\s*[:—–-]/i.test(t)) return [];
  // Each question keeps the sentences that explain it ("That decides between rows 2–4."): after it, or before the first.
  const asked: string[] = [];
  let lead: string[] = [];
  for (const s of all) {
    if (isAsked(s)) {
      asked.push([...lead, s].join(' '));
      lead = [];
    } else if (asked.length) asked[asked.length - 1] += ` ${s}`;
    else lead.push(s);
  }
  // "Questions that would change my answer: (1) ...?" announces the questions; it is not part of the first.
  const announced = /^([^:?]{1,80}):\s*/.exec(asked[0] ?? '');
  if (announced && isQuestionsTitle(announced[1]!)) asked[0] = asked[0]!.slice(announced[0].length);
  return asked;
}

/** "Two questions for you:" leading a list of them. */
export function isQuestionsLead(line: string): boolean {
  const t = plain(line);
  return /:$/.test(t) && isQuestionsTitle(t.replace(/:$/, '')) && t.length <= 80;
}

/** Headings announcing the user's questions ("Questions for you", "Open questions"). */
export function isQuestionsTitle(title: string): boolean {
  return /^(?:\w+\s+){0,3}questions?\b|\bquestions? (?:for|to) (?:you|the user)|\bwhat i need (?:from you|to know)|\bto confirm\b|\bunknowns\b/i.test(title);
}

/** Headings whose numbered lists are steps or options, not arguments ("Suggested rollout", "Next steps"). */
export function isOtherTitle(title: string): boolean {
  if (/\b(?:points?|arguments?|claims?|answers?|responses?|challenges?|defen[cs]es?|rebuttals?|objections?)\b/i.test(title)) return false;
  return /\b(?:rollout|roll-out|next steps?|steps|plan|recommend\w*|summary|conclusion|verdict|bottom line|tl;?dr|caveats?|migration|implementation|sketch|schema|example|checklist|action items?|to-?do|timeline|references|sources|appendix|what i'?d do|decision|proposal|setup|config\w*|how to|rollback|monitoring|alternatives?|options?|sequencing|order of work|phases?|pilot|experiment|benchmark plan|test plan)\b/i.test(title);
}

/** A numbered item titled as a question for the user ("12. **Question back to the user:** what is it for? ..."): the question, else none. */
export function askedAsPoint(text: string): string | undefined {
  const titled = /^\W*?(?:\*\*|__)?([^*_:\n]{1,80}?)(?:\*\*|__)?\s*[:—–]\s*(?:\*\*|__)?\s*/.exec(text);
  if (!titled || !isQuestionsTitle(titled[1]!.replace(/\([^)]*\)/g, '').trim()) || !text.includes('?')) return undefined;
  return text.slice(titled[0].length).trim() || undefined;
}
