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
