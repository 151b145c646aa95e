/**
 * A result's effects as the orchestrator reads them: one line per kind of outcome. "P1.1 -> Agreed (n/a)"
 * and "P1.3 -> Agreed (n/a)" become "P1.1, P1.3 -> Agreed (n/a)"; lines a returned reply already shows
 * (that it was recorded, how many points it brought) are left out.
 */
const PLACED = /^(P\d+\.\d+) -> (.+)$/;
const SHOWN_BY_REPLY = /^(?:reply recorded for iteration \d+|\d+ new point\(s\) to judge)$/;

export function effectsView(effects: string[], replyShown: boolean): string[] {
  const lines: ({ text: string } | { outcome: string; ids: string[] })[] = [];
  const groups = new Map<string, string[]>();
  for (const effect of effects) {
    if (replyShown && SHOWN_BY_REPLY.test(effect)) continue;
    const placed = PLACED.exec(effect);
    if (!placed) {
      lines.push({ text: effect });
      continue;
    }
    const [, id, outcome] = placed as unknown as [string, string, string];
    const ids = groups.get(outcome);
    if (ids) ids.push(id);
    else {
      groups.set(outcome, [id]);
      lines.push({ outcome, ids: groups.get(outcome)! });
    }
  }
  return lines.map((line) => ('text' in line ? line.text : `${line.ids.join(', ')} -> ${line.outcome}`));
}
