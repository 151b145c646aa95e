import type { NumberNotPoint, ReplyLabel } from '../../../schemas/argumentation.js';

/**
 * What parley read in one consultee reply (free Markdown, as real models write it). The reader
 * (reply-reader.ts) only reads; the engine (reply-record.ts) decides what each part does to the
 * state, and lists for the orchestrator whatever it could not apply with certainty.
 */
export interface Reading {
  /** The opening summary before the first point or answer ("Short answer: Postgres."), if any. */
  headline?: string;
  /**
   * Every numbered item, in reply order, each with the consultee's own number: the points, and the items
   * inside answers (partOf names the answer's id), which are claims too.
   */
  points: ReadPoint[];
  /** Answers to earlier challenges or objections, by the id they name (C1, or P1.3 in quick mode). */
  answers: ReadAnswer[];
  /** The reply's own numbers that are no point (an answer, a question, "No further points"), so the read-back can say what each became. */
  numbersNotPoints: NumberNotPoint[];
  /** The reply says there is nothing further ("No further points.", "Nothing to add.", "Nothing to defend."). */
  nothingFurther: boolean;
  /** Questions addressed to the user (not rhetorical, not to the orchestrator about the protocol). */
  questions: string[];
  /** Unnumbered Markdown sections or paragraphs after or between points that are not part of any point. */
  sections: ReadSection[];
  /**
   * Ids (C1, or P1.3 in quick mode) named outside any answer to them and outside the points (which keep their
   * own mentions): in the headline, a section, a question, another id's answer, a "nothing further" line.
   */
  mentions: ReadMention[];
  /** How many times each label appears anywhere. */
  labels: Record<ReplyLabel, number>;
}

export interface ReadPoint {
  /** The consultee's own number ("3." / "3)" / "**3.**" / "### 3." / "Point 3:"). */
  number: number;
  /** The whole point, its continuation lines and nested lists included, without any later heading or section. */
  text: string;
  /** The heading or lead-in over its group ("## Extensions", "New points:") when that has no text of its own. */
  heading?: string;
  /** EVIDENCE / INFERENCE / GUESS in any case, bare, bold or followed by a colon. */
  label?: ReplyLabel;
  /** Earlier point ids it cites (P1.2). */
  pointRefs: string[];
  /** Ledger fact ids it cites (F7): evidence about what the ledger holds is evidence on existing material. */
  factRefs?: string[];
  /** Challenge ids merely mentioned inside the point ("falls out of C1"): not an answer. */
  challengeMentions: string[];
  /** It claims a check was made ("I ran", "I checked", "verified") yet carries no label. */
  unlabeledVerification: boolean;
  /** An item inside the answer to this id (C1, or P1.3 in quick mode), not a point standing alone. */
  partOf?: string;
  /** Earlier point ids it says it replaces, corrects, refines or narrows ("Replaces P4.5: ...", "Refines P3.4"). */
  supersedes?: string[];
}

/** unclear: it gives something up, but whether all of the claim or part of it the words do not settle. */
export type AnswerKind = 'defense' | 'partial-concession' | 'concession' | 'unclear';

export interface ReadAnswer {
  /** The challenge (C1) or, in quick mode, the point (P1.3) it answers. */
  ref: string;
  /**
   * concession: the claim is given up entirely ("I concede C1", "Re C1: conceded.", "You're right, withdrawn").
   * partial-concession: part given up, a narrowed claim kept ("Partly conceded", "I concede X but ...").
   * defense: the claim is maintained.
   */
  kind: AnswerKind;
  /** The whole answer block, its items included. */
  text: string;
  /** The answer's own words: the block without its numbered items (which are read as points with partOf). */
  own: string;
  /** For a partial concession, the narrowed claim when it can be cut out of the answer's own words. */
  narrowedClaim?: string;
  /**
   * New arguments inside an answer that gives something up ("I still claim X, and also that Y", "In addition, Y"):
   * no part of the claim kept, each recorded as a point of its own that the phase rule admits or not.
   */
  added?: string[];
  /** A partial concession whose kept claim is the list of items that follows it ("What I still claim:" + items). */
  keptByItems?: boolean;
  label?: ReplyLabel;
  /** As for a point: the heading over its group ("## Answers to challenges"). */
  heading?: string;
}

export interface ReadSection {
  /** The heading or bold title ("Suggested rollout"), or "" for an untitled paragraph. */
  title: string;
  text: string;
}

export interface ReadMention {
  ref: string;
  /** The sentences that name it. */
  text: string;
}
