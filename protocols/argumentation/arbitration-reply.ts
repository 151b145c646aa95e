/** Reads "<id>: OK" / "<id>: FLAG why" lines of a reviewer's reply, for the ids that were asked about. */
export function parseArbitrationReply(text: string, refs: string[]): { ref: string; flagged: boolean; note?: string }[] {
  const wanted = new Set(refs);
  const found = new Map<string, { ref: string; flagged: boolean; note?: string }>();
  for (const line of text.split('\n')) {
    const match = /^\W*(P\d+\.\d+)\W*[:\-–]\s*(OK|FLAG(?:GED)?)\b[:\s-]*(.*)$/i.exec(line.trim());
    if (!match) continue;
    const [, ref, verdict, note] = match as unknown as [string, string, string, string];
    if (!wanted.has(ref) || found.has(ref)) continue;
    const flagged = verdict.toUpperCase().startsWith('FLAG');
    found.set(ref, { ref, flagged, ...(flagged && note.trim() ? { note: note.trim().slice(0, 500) } : {}) });
  }
  return refs.filter((ref) => found.has(ref)).map((ref) => found.get(ref)!);
}
