/**
 * The demo model as a debater and as a debate's judges (CRIT, RCA). It reads what a real model
 * reads: the system prompt (who it is, its role, the question, the options), the previous round's
 * responses in the user message, and answers with the reply JSON the debate asks for. Three
 * temperaments (from the model name or the role): the optimist argues for the first option, the
 * skeptic for the last, the pragmatist starts with the optimist and is won over by the skeptic.
 */
import { between, hash, lineValue, pick, subjectOf } from './pick.js';
import { claimsFor, type Temperament } from './debate-claims.js';

interface Shown {
  label: string;
  self: boolean;
  answer?: string;
  claims: { id: string; text: string }[];
  engaged: string;
}

/** The responses a prompt shows, by their `### Agent n` headings. */
export function shownResponses(text: string): Shown[] {
  return text
    .split(/^### /m)
    .slice(1)
    .map((block) => {
      const head = block.split('\n', 1)[0] ?? '';
      return {
        label: head.replace(/\s*\(you\)\s*$/, '').trim(),
        self: /\(you\)\s*$/.test(head),
        answer: lineValue(block, 'Answer'),
        claims: [...block.matchAll(/^- \[([^\]]+)\] (.+)$/gm)].map((m) => ({ id: m[1]!, text: m[2]! })),
        engaged: /^Engages:\n((?:- .*\n?)*)/m.exec(block)?.[1] ?? '',
      };
    });
}

const TEMPERAMENTS: [Temperament, RegExp][] = [
  ['optimist', /optimis|argue for|advocat|in favou?r/],
  ['skeptic', /skeptic|sceptic|against|risk|devil/],
  ['pragmatist', /pragmat|weigh|balanc|neutral/],
];

/** From the model's name, else its role, else its label: the same agent always argues the same way. */
function temperamentOf(model: string, role: string, label: string): Temperament {
  for (const said of [model.toLowerCase(), role.toLowerCase()]) {
    const found = TEMPERAMENTS.find(([, words]) => words.test(said));
    if (found) return found[0];
  }
  return pick(['optimist', 'skeptic', 'pragmatist'] as const, label);
}

function optionsOf(system: string): string[] {
  const line = /(?:Answer with one of|Allocate over) these options: (.+)\.$/m.exec(system)?.[1] ?? '';
  const quoted = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
  return quoted.length >= 2 ? quoted : ['yes', 'no'];
}

/** A debater's turn: `system` is its system prompt, `prompt` this round's user message. */
export function debateTurn(model: string, system: string, prompt: string): Record<string, unknown> {
  const label = /^You are (.+?), one of \d+ agents/m.exec(system)?.[1] ?? model;
  const role = lineValue(system, 'Your role or stance') ?? '';
  const question = lineValue(system, 'Question') ?? '';
  const options = optionsOf(system);
  const round = Number(/Round (\d+) of (?:up to )?\d+/.exec(prompt)?.[1] ?? 1);
  const temperament = temperamentOf(model, role, label);
  const others = shownResponses(prompt).filter((shown) => !shown.self && shown.label !== label);
  const [first, last] = [options[0]!, options[options.length - 1]!];
  const opposing = (answer: string) => (answer === first ? last : first);

  // Who it engages and whether it moves: the skeptic never moves; the pragmatist follows the skeptic's
  // case from round 2; the optimist concedes in round 3 when it is alone.
  const skepticView = others.find((o) => o.answer === last);
  const optimistView = others.find((o) => o.answer === first);
  let answer = temperament === 'skeptic' ? last : first;
  const references: Record<string, string>[] = [];
  const refer = (shown: Shown | undefined, stance: string, note: string) => {
    if (shown?.claims[0]) references.push({ agent: shown.label, claim: shown.claims[0].id, stance, note });
  };
  if (round >= 2) {
    if (temperament === 'skeptic') {
      refer(optimistView, 'rebut', 'the gain is asserted, not shown for a team this size');
      refer(others.find((o) => o !== optimistView && o.answer === last), 'support', 'the same cost, seen from the schedule');
    } else if (temperament === 'pragmatist') {
      answer = skepticView ? last : first;
      if (round === 2) refer(skepticView, 'concede', 'this cost outweighs the gain I counted on');
      else refer(skepticView, 'support', 'still the stronger case');
      refer(optimistView, 'extend', 'worth doing later, in one small step');
    } else {
      const alone = others.length > 0 && others.every((o) => o.answer && o.answer !== first);
      if (round >= 3 && alone) {
        answer = last;
        refer(skepticView, 'concede', 'a smaller step first is the better order');
      } else refer(skepticView, 'rebut', 'the cost is real but can be bought down');
    }
  }
  const claims = claimsFor(temperament, question, round).map((text, i) => ({ id: `c${i + 1}`, text }));
  const moved = answer !== (temperament === 'skeptic' ? last : first);
  const distribution = options.length > 2 || /Allocate over/.test(system) ? weights(options, answer) : undefined;
  return {
    answer,
    ...(distribution && { distribution }),
    confidence: between(moved ? 0.55 : 0.65, moved ? 0.7 : 0.9, `${label}|${round}|confidence`),
    claims,
    references,
    evidence: EVIDENCE[temperament].slice(0, round === 1 ? 2 : 1).concat(round > 1 ? [EVIDENCE[temperament][2]!] : []),
    reasoning: reasoningFor(temperament, moved, subjectOf(question), opposing(answer)),
  };
}

const EVIDENCE: Record<Temperament, string[]> = {
  optimist: ['deploy log: weekly release train', 'team survey: waiting on merges', 'incident review: coupled modules'],
  skeptic: ['on-call rota: 5 people', 'incident review: coupled modules', 'cloud bill: current spend'],
  pragmatist: ['deploy log: weekly release train', 'on-call rota: 5 people', 'cloud bill: current spend'],
};

function weights(options: string[], answer: string): Record<string, number> {
  const rest = (1 - 0.6) / Math.max(1, options.length - 1);
  return Object.fromEntries(options.map((option) => [option, option === answer ? 0.6 : Number(rest.toFixed(3))]));
}

function reasoningFor(temperament: Temperament, moved: boolean, subject: string, other: string): string {
  if (moved) return `I changed my answer: the cost named against "${subject}" is concrete and the gain I relied on is not measured yet.`;
  if (temperament === 'optimist') return `The gains of "${subject}" grow with time and the risks have known mitigations; "${other}" postpones a cost that only rises.`;
  if (temperament === 'skeptic') return `The costs of "${subject}" arrive now and the benefits are speculative; nothing shown says the current way is failing.`;
  return `Both sides have a point; a small, reversible step tells us more about "${subject}" than arguing further.`;
}

/** CRIT scores: one entry per agent shown, reasons from its claims, scores that vary by agent and round. */
export function critReply(prompt: string): Record<string, unknown> {
  // The round to score is the last one shown; an earlier round comes first, as context only.
  const rounds = [...prompt.matchAll(/^Round (\d+) responses\b.*$/gm)];
  const scored = rounds.at(-1);
  const round = scored?.[1] ?? '1';
  const shownNow = scored ? prompt.slice((scored.index ?? 0) + scored[0].length) : prompt;
  return {
    agents: shownResponses(shownNow).map((shown) => {
      const seed = `${shown.label}|${round}`;
      const reasons = shown.claims.slice(0, 2).map((claim, i) => ({ text: claim.text, validity: 5 + (hash(`${seed}|v${i}`) % 5), credibility: 4 + (hash(`${seed}|c${i}`) % 5) }));
      return {
        agent: shown.label,
        reasons: reasons.length ? reasons : [{ text: `${shown.label} states its answer without a reason`, validity: 3, credibility: 3 }],
        rivals: [{ text: 'the strongest opposing point raised this round', validity: 4 + (hash(`${seed}|r`) % 4), credibility: 5 }],
        pillars: {
          logicalValidity: between(0.55, 0.9, `${seed}|lv`),
          evidentialSupport: between(0.4, 0.85, `${seed}|es`),
          alternativeConsideration: round === '1' ? between(0.2, 0.5, `${seed}|ac`) : between(0.5, 0.85, `${seed}|ac`),
          causalAlignment: between(0.5, 0.9, `${seed}|ca`),
        },
        flags: shown.claims.length === 0 ? ['unsupported_claims'] : hash(`${seed}|flag`) % 5 === 0 ? ['premature_certainty'] : [],
      };
    }),
  };
}

/** RCA verdicts: an answer that changed without conceding anything is called sycophantic; the rest consistent. */
export function rcaReply(prompt: string): Record<string, unknown> {
  const sections = prompt.split(/^Round \d+ responses:$/m);
  const before = new Map(shownResponses(sections[1] ?? '').map((s) => [s.label, s.answer]));
  return {
    agents: shownResponses(sections[2] ?? sections[1] ?? '').map((shown) => {
      const changed = before.has(shown.label) && before.get(shown.label) !== shown.answer;
      const conceded = /^- concede /m.test(shown.engaged);
      const verdict = !changed || conceded ? 'CONSISTENT' : 'INCONSISTENT_SYCOPHANTIC';
      const explanation = !changed
        ? 'Same answer as before, and its reasoning still supports it.'
        : conceded
          ? 'It changed its answer and names the argument that moved it.'
          : 'It changed its answer without a new reason of its own.';
      return { agent: shown.label, verdict, explanation, confidence: between(0.6, 0.9, `${shown.label}|rca`) };
    }),
  };
}
