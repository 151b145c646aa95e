/**
 * A result's effects as the orchestrator reads them: one line per kind of outcome. "P1.1 -> Agreed"
 * and "P1.3 -> Agreed" become "P1.1, P1.3 -> Agreed". Lines that repeat what the result shows anyway
 * are left out: the iteration and phase (its `at`), and, when the reply is returned, that it was
 * recorded, how many points it brought, which answers await a verdict (`next` names them) and that
 * items of an answer are points (their `partOf` says so).
 */
const PLACED = /^(P\d+\.\d+) -> (.+)$/;
const SHOWN_BY_AT = /^iteration \d+(?: \([A-Z]+\))?$/;
const SHOWN_BY_REPLY = /^(?:reply recorded for iteration \d+|\d+ new point\(s\) to judge|C\d+ (?:defended|partly conceded[^:]*): judge it|P[\d., P]+: item\(s\) of an answer, .*)$/;
// A value claim's evidence type says nothing.
const NO_EVIDENCE_TYPE = /(-> Agreed) \(n\/a\)/;

export function effectsView(effects: string[], replyShown: boolean): string[] {
  const lines: ({ text: string } | { outcome: string; ids: string[] })[] = [];
  const groups = new Map<string, string[]>();
  for (const effect of effects) {
    if (SHOWN_BY_AT.test(effect) || (replyShown && SHOWN_BY_REPLY.test(effect))) continue;
    const placed = PLACED.exec(effect);
    if (!placed) {
      lines.push({ text: effect.replace(NO_EVIDENCE_TYPE, '$1') });
      continue;
    }
    const [, id, outcome] = placed as unknown as [string, string, string];
    const shown = `-> ${outcome}`.replace(NO_EVIDENCE_TYPE, '$1').slice(3);
    const ids = groups.get(shown);
    if (ids) ids.push(id);
    else {
      groups.set(shown, [id]);
      lines.push({ outcome: shown, ids: groups.get(shown)! });
    }
  }
  return lines.map((line) => ('text' in line ? line.text : `${line.ids.join(', ')} -> ${line.outcome}`));
}

/**
 * Effects that cannot both be true of one result: a result stating both says two things to the orchestrator,
 * one of them false. Each pair is [what one says, what the other says].
 */
const CONTRADICTIONS: [RegExp, RegExp][] = [
  [/^stress test required\b/, /\bit lapses\b/],
  [/^stress test required\b/, /^stress test warranted but not run\b/],
  [/^converged\b/, /^synthesis not applied: the deliberation continues\b/],
  [/^report ready\b/, /^synthesis not applied\b/],
  [/^extended CONSTRUCTIVE\b/, /^iteration \d+\b/],
];

/** The pairs of a result's effects that contradict each other (none, in a result parley returns). */
export function contradictingEffects(effects: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const [a, b] of CONTRADICTIONS) {
    const one = effects.find((e) => a.test(e));
    const other = effects.find((e) => b.test(e));
    if (one && other) out.push([one, other]);
  }
  return out;
}
