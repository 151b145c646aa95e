/**
 * What each temperament of the demo debater claims, round by round: written for the demo's own
 * question (a small team and microservices), and in general terms for any other question.
 */
export type Temperament = 'optimist' | 'skeptic' | 'pragmatist';

type Bank = Record<Temperament, string[][]>;

/** Rounds 1, 2 and 3+ for the demo question. */
const SERVICES: Bank = {
  optimist: [
    ['Independent deploys let each developer ship without waiting for the others.', 'Clear service boundaries drawn now cost less than untangling a bigger monolith later.'],
    ['Managed tracing and a deploy template make the operational cost a one-off, not a tax.'],
    ['Splitting out the one service that needs it is the part of my case that survives.'],
  ],
  skeptic: [
    ['Five people cannot staff the on-call, tracing and deploy tooling that many services need.', 'Network calls replace function calls: new failure modes and no new features.'],
    ['The deploy delays come from the pipeline, not from the monolith: a faster pipeline fixes them sooner.'],
    ['Revisit the split when the team or the traffic doubles, with the numbers in hand.'],
  ],
  pragmatist: [
    ['The real pain is slow deploys; the architecture is one way to fix it, not the only one.', 'A modular monolith keeps the boundaries without the network between them.'],
    ['Measure deploy lead time for a month first; split only where the numbers point.'],
    ['A modular monolith this year, one extracted service next year if the load demands it.'],
  ],
};

const GENERAL: Bank = {
  optimist: [
    ['The benefits compound: every month of delay makes the change more expensive.', 'The risks named so far have known mitigations.'],
    ['The cost raised against it is a one-off; the gain recurs.'],
    ['The part of the change that is cheap to undo is still worth doing now.'],
  ],
  skeptic: [
    ['The costs arrive now and the benefits are speculative.', 'Nothing shown yet says the current approach is failing.'],
    ['The strongest argument for the change rests on an assumption nobody has checked.'],
    ['Decide again when there is a measurement both sides accept.'],
  ],
  pragmatist: [
    ['A small, reversible step would test the idea before committing to it.', 'Both sides agree on the goal; they differ on timing.'],
    ['The downside named so far is larger than the upside that has been shown.'],
    ['Take the reversible step now and revisit the rest with data.'],
  ],
};

export function claimsFor(temperament: Temperament, question: string, round: number): string[] {
  const bank = /microservice|monolith/i.test(question) ? SERVICES : GENERAL;
  return bank[temperament][Math.min(round, 3) - 1]!;
}
