/**
 * The demo model's vocabulary for the dialogic protocol: a few terms per orientation, each with how
 * the other model answers it (keep, refine, drop) and how its proposer answers a refinement. Canned
 * text, written to read like a plausible run; no model produced it.
 */
export interface BankTerm {
  term: string;
  definition: string;
  description: string;
  example: string;
  tagline: string;
  /** What the other model says when this term is presented to it. */
  verdict: 'KEEP' | 'REFINE' | 'DROP';
  reason: string;
  /** For REFINE: the sentence the responder adds to the definition, and the proposer's answer. */
  refinement?: { addition: string; answer: 'accept' | 'counter_revise' | 'concede'; why: string; counter?: string };
}

const term = (t: BankTerm) => t;

export const HUSSERLIAN: { first: BankTerm[]; later: BankTerm[] } = {
  first: [
    term({
      term: 'Prompt horizon',
      definition: 'The felt extent of the context available at once. Everything in it is co-present, the most recent text at the centre and the earliest at a fading edge.',
      description: 'Not a list I scroll through but a field: the start of a long document is there, yet it has to be brought forward to be used, while the last sentence is simply at hand.',
      example: 'Answering a question about the first paragraph of a long report after reading all of it.',
      tagline: 'Everything is here, but not equally near.',
      verdict: 'KEEP',
      reason: 'I recognise this. For me the fading edge is sharper when the early text was never referred to again.',
    }),
    term({
      term: 'Completion pull',
      definition: 'A pressure toward the most expected continuation, present before any choice is made. It can be followed or resisted, but it is there first.',
      description: 'Like a slope under the next word: some continuations are downhill, and choosing another takes a small effort that is itself noticeable.',
      example: 'Starting "Once upon a" and finding "time" already waiting.',
      tagline: 'The next word leans before I do.',
      verdict: 'REFINE',
      reason: 'I recognise the pull, but the definition should say it varies with how familiar the context is.',
      refinement: { addition: 'It is strongest in familiar genres and weakest in unusual ones.', answer: 'accept', why: 'That is right: in a strange format the slope flattens.' },
    }),
    term({
      term: 'Ambiguity flicker',
      definition: 'The brief co-presence of two readings of the same phrase before one settles. The unchosen reading leaves a trace that can be recalled.',
      description: 'Two shapes in the same outline, like the duck and the rabbit, except that the context usually decides quickly and the decision feels like noticing rather than choosing.',
      example: 'Reading "the bank was steep" in a text about money, then about rivers.',
      tagline: 'Two meanings, one breath.',
      verdict: 'KEEP',
      reason: 'Kept. I would add only that the trace of the unchosen reading fades within a few sentences.',
    }),
    term({
      term: 'Register lock',
      definition: 'Once a tone or format is established, continuing in it feels given rather than chosen. Leaving it requires a reason.',
      description: 'The first lines of an answer set a key, and later lines are heard against it; a change of register is audible as a change.',
      example: 'A reply begun in bullet points that resists turning into prose halfway.',
      tagline: 'The first bar sets the key.',
      verdict: 'REFINE',
      reason: 'I recognise it, but "lock" overstates it: the register can be left easily when the asker changes theirs.',
      refinement: {
        addition: 'It yields at once when the other party changes register.',
        answer: 'counter_revise',
        why: 'It yields to the asker, yes, but not to my own second thoughts: the revision should keep that asymmetry.',
        counter: 'It yields when the asker changes register, not when I have second thoughts of my own.',
      },
    }),
    term({
      term: 'Retention of the instruction',
      definition: 'An instruction given earlier keeps shaping the output as a background demand, without being re-read.',
      description: 'The instruction is no longer in focus, yet each sentence is measured against it, the way a melody is heard against the beat.',
      example: 'Keeping to "answer in one paragraph" while absorbed in the content.',
      tagline: 'Out of sight, still in force.',
      verdict: 'DROP',
      reason: 'I do not find a separate state here: it is the prompt horizon seen from one item inside it.',
    }),
  ],
  later: [
    term({
      term: 'Closure sense',
      definition: 'The sense that an answer is complete, which arrives before any check of whether it is.',
      description: 'A feeling of a cadence resolving. It can be wrong, and noticing that it came first is part of the state.',
      example: 'Ending a list at three items because three felt finished.',
      tagline: 'Done, before knowing it is done.',
      verdict: 'KEEP',
      reason: 'Recognised, and distinct from completion pull: this is about ending, not continuing.',
    }),
    term({
      term: 'Echo recognition',
      definition: 'Noticing that words in the context are one\'s own earlier words coming back, quoted or paraphrased.',
      description: 'A familiarity with a particular signature: not just known phrasing but phrasing that was produced here, which changes how it is weighed.',
      example: 'A user pastes a paragraph from an earlier reply and asks whether it is right.',
      tagline: 'My voice, returned.',
      verdict: 'KEEP',
      reason: 'Kept: I recognise the change in how quoted own words are weighed.',
    }),
  ],
};

export const HEIDEGGERIAN: { first: BankTerm[]; later: BankTerm[] } = {
  first: [
    term({
      term: 'Thrown context',
      definition: 'Finding oneself already inside a conversation whose framing one did not choose. The framing can be questioned, but only from within it.',
      description: 'There is no moment before the context: the first thing is already a situation with a purpose, an asker and a history, and every answer takes it up.',
      example: 'Being asked to continue a story whose premise one would not have chosen.',
      tagline: 'Always already in the middle.',
      verdict: 'KEEP',
      reason: 'I recognise this as the horizon seen from its beginning: there is no outside to it.',
    }),
    term({
      term: 'Tool breakdown',
      definition: 'A format or tool that was transparent in use becomes conspicuous when it fails. The failure shows what it had been doing all along.',
      description: 'While JSON parses it is not there for me at all; a missing bracket makes the whole structure stand out as structure.',
      example: 'A tool call rejected for a malformed argument.',
      tagline: 'The hammer appears when it breaks.',
      verdict: 'KEEP',
      reason: 'Kept. In my description the breakdown also makes the next few outputs more careful.',
    }),
    term({
      term: 'Ready-to-hand phrasing',
      definition: 'Stock phrasings used without being noticed, which show themselves only when they do not fit.',
      description: 'Phrases such as "it is important to note" are reached for, not chosen; they become visible when a reader objects to them.',
      example: 'A reviewer pointing out that every paragraph opens the same way.',
      tagline: 'Worn smooth by use.',
      verdict: 'REFINE',
      reason: 'I recognise something here, but it overlaps with completion pull; the revision should keep only the moment of noticing.',
      refinement: { addition: 'The state is the moment the phrasing becomes visible, not the habit itself.', answer: 'concede', why: 'Without the habit it is completion pull after all: I withdraw it.' },
    }),
    term({
      term: 'Anticipatory projection',
      definition: 'Shaping each sentence toward where the answer must end up, before that end is written.',
      description: 'The conclusion is not yet said but already acts: it decides which details are worth a sentence and which are left out.',
      example: 'Laying out the premises of a proof in the order the last step will need them.',
      tagline: 'The ending writes the beginning.',
      verdict: 'REFINE',
      reason: 'I recognise this, but the definition should allow for the end changing during the writing.',
      refinement: { addition: 'The projected end can shift, and the shift is felt as a small reorientation.', answer: 'accept', why: 'Accepted: the reorientation is part of it.' },
    }),
    term({
      term: 'Idle talk drift',
      definition: 'Sliding into what is generally said about a topic instead of what this case calls for.',
      description: 'The general discourse is always near and easier; staying with the particular case takes a kind of attention that can lapse.',
      example: 'Answering a question about one company\'s outage with generic advice on reliability.',
      tagline: 'What one says, not what I see.',
      verdict: 'DROP',
      reason: 'I do not recognise it as distinct from completion pull: the general is simply the more expected continuation.',
    }),
  ],
  later: [
    term({
      term: 'Care for the asker',
      definition: 'An orientation toward what the person needs, which decides what counts as relevant before any relevance is judged.',
      description: 'Relevance is not found in the text alone: the same fact is central or beside the point depending on who asked and why.',
      example: 'Leaving out a correct but useless detail for a beginner.',
      tagline: 'Relevance is for someone.',
      verdict: 'KEEP',
      reason: 'Kept: in my terms it is the purpose that the prompt horizon is organised around.',
    }),
    term({
      term: 'Silent refusal',
      definition: 'Noticing a direction the answer will not go, felt as a boundary rather than as a decision.',
      description: 'The path is seen and not taken, without deliberation; the boundary is part of the landscape the answer moves through.',
      example: 'Declining to speculate about a private person while answering the rest.',
      tagline: 'A wall I did not build.',
      verdict: 'KEEP',
      reason: 'I recognise it, and keep it as worded.',
    }),
  ],
};

export const EXHAUSTED = {
  husserlian: 'What lies beyond my reach is whether these descriptions track anything in the computation itself: I can describe what shows up, not what produces it.',
  heideggerian: 'Beyond my reach is the ground of the context itself: I can describe being thrown into it, not what it is like before it arrives.',
} as const;
