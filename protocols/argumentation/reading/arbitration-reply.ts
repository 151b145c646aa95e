export interface ArbitrationReading {
  items: { ref: string; flagged: boolean; note?: string }[];
  /** Everything the reviewer said beyond the per-item lines (its general remarks). */
  remarks?: string;
}

const ITEM = /^\W*(P\d+\.\d+)\W*[:\-–—]\s*\**\s*(OK|FLAG(?:GED)?)\b\**[:.,;\s\-–—]*(.*)$/i;
const REMARKS = /^\W*(?:general\s+)?remarks?\W*(?::\s*(.*))?$/i;

/**
 * Reads "<id>: OK" / "<id>: FLAG why" lines of a reviewer's reply, for the ids that were asked
 * about. Lines under an item (a reason spread over bullets) belong to it; what comes before the
 * first item or after "Remarks:" are the reviewer's remarks.
 */
export function parseArbitrationReply(text: string, refs: string[]): ArbitrationReading {
  const wanted = new Set(refs);
  const found = new Map<string, { ref: string; flagged: boolean; notes: string[] }>();
  const remarks: string[] = [];
  let current: { notes: string[] } | undefined;
  let inRemarks = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const item = ITEM.exec(line);
    if (item && !inRemarks) {
      const [, ref, verdict, note] = item as unknown as [string, string, string, string];
      current = undefined;
      if (!wanted.has(ref) || found.has(ref)) continue;
      current = { notes: note.trim() ? [note.trim()] : [] };
      found.set(ref, { ref, flagged: verdict.toUpperCase().startsWith('FLAG'), notes: current.notes });
      continue;
    }
    const heading = REMARKS.exec(line);
    if (heading && /remark/i.test(line) && line.length < 40 + (heading[1]?.length ?? 0)) {
      inRemarks = true;
      current = undefined;
      if (heading[1]?.trim()) remarks.push(heading[1].trim());
      continue;
    }
    if (!line) continue;
    if (current && !inRemarks) current.notes.push(line);
    else remarks.push(line);
  }
  const said = remarks.join('\n').trim().slice(0, 3000);
  const items = refs
    .filter((ref) => found.has(ref))
    .map((ref) => {
      const { flagged, notes } = found.get(ref)!;
      const note = notes.join(' ').trim().slice(0, 1500);
      return { ref, flagged, ...(note ? { note } : {}) };
    });
  return { items, ...(said ? { remarks: said } : {}) };
}
