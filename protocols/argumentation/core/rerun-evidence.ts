/**
 * A re-run of Codex's own check, recorded as evidence: what the orchestrator cited, then what it saw on
 * re-running the command. Written by the evidence gate (moves/gates.ts), read by the brief (report/plain-lines.ts).
 */
export function rerunEvidence(cited: string | undefined, seen: string): string {
  return cited?.trim() ? `${cited.trim()} (re-run: ${seen})` : seen;
}

/** The two parts of re-run evidence; undefined for evidence written otherwise. */
export function rerunParts(evidence: string): { cited: string; seen: string } | undefined {
  const parts = /^([\s\S]*?)\s*\(re-run: ([\s\S]*)\)$/.exec(evidence.trim());
  return parts ? { cited: parts[1]!, seen: parts[2]! } : undefined;
}
