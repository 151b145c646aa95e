/**
 * What of parley's record leaked into an answer meant for the user: ids, the deliberation's name,
 * paths on somebody's machine, lines cut short. Issue 26's judges found these meant nothing to the user.
 */

const EDGE_BEFORE = '(?<![\\p{L}\\p{N}_./\\-])';
const EDGE_AFTER = '(?![\\p{L}\\p{N}_]|\\.\\d)';
const ID = '[CFQ][1-9]\\d*';

/** P<iteration>.<n>: nothing ordinary is spelled that way. */
const POINT_ID = new RegExp(`${EDGE_BEFORE}P[1-9]\\d*\\.[1-9]\\d*${EDGE_AFTER}`, 'gu');

/**
 * C3, F7 and Q1 are ordinary words too (an F1 score, C2 instances, Q1 2025, press F5): they count
 * only where they read as ids: in a run of ids of one kind (F1, F2 / F1–F4, not before a year), in
 * brackets by themselves, after a word that cites one ("per F2", "challenge C3"), before what
 * parley says of one ("C3 conceded", "P1.2 AGREED"), or as a line's label ("F1: ...", "Q1 Do you ...").
 */
const RECORD_IDS = [
  new RegExp(`${EDGE_BEFORE}([CFQ])[1-9]\\d*(?:\\s*(?:,|–|—|-|/|\\band\\b|\\bor\\b|\\bto\\b)\\s*\\1[1-9]\\d*)+${EDGE_AFTER}(?!\\s*\\d{4}\\b)`, 'gu'),
  new RegExp(`[(\\[]\\s*${ID}\\s*[)\\]]`, 'gu'),
  new RegExp(`\\b(?:challenges?|facts?|per|cf\\.|cites?|cited|citing)\\s+${ID}${EDGE_AFTER}`, 'giu'),
  new RegExp(`${EDGE_BEFORE}${ID}\\s+(?:conceded|closes|closed|withdrawn|rejected|rebutted|accepted|resolved|answered|replaces|stands|is (?:open|closed|resolved)|REJECT|SKEPTICAL|AGREED|DISMISSED|UNRESOLVED)\\b`, 'gu'),
  new RegExp(`^[ \\t]*(?:[-*•][ \\t]+)?${ID}(?:[:.)]|[ \\t]+[—–-])[ \\t]`, 'gmu'),
  new RegExp(`^[ \\t]*(?:[-*•][ \\t]+)?Q[1-9]\\d*[ \\t]+(?=[A-Z][a-z])`, 'gmu'),
];

const DELIBERATION_ID = /\bd-\d{8}-\d{6}-[0-9a-f]{6}\b/g;
const PARLEY_URI = /\bparley:\/\/[^\s)\]>"'`]+/gi;

const PATH_CHARS = "[^\\s`'\"()<>\\[\\],;]";
/** Somebody's home, this machine's work folders, macOS's per-user temp folders, a Windows profile. */
const MACHINE_PATH = new RegExp(`(?<![\\w.~/:-])(?:/(?:home|Users|root|work|mnt)/${PATH_CHARS}+|/(?:private/)?var/folders/${PATH_CHARS}+|/private/tmp/${PATH_CHARS}+|\\b[A-Z]:\\\\Users\\\\${PATH_CHARS}+)`, 'g');
/**
 * In the temp folder, a folder or a generated name is somebody's scratch (Codex's, the
 * orchestrator's); a plain file name such as /tmp/big.ndjson in a command the user can run is not.
 */
const TEMP_PATH = new RegExp(`(?<![\\w.~/:-])/(?:var/)?tmp/${PATH_CHARS}+`, 'g');
const SCRATCH = /^\/(?:var\/)?tmp\/(?:[^/]+\/.|.*(?:parley|codex)|.*[-.](?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{6}$)/i;

/** parley's own truncation marks, and a line that stops mid-sentence on an ellipsis. */
const MORE_CHARACTERS = /\[(?:\.\.\.|…)\s*\d[\d,]*\s+more\s+characters?[^\]]*\]/gi;
const CUT_LINE = /[\p{L}\p{N},;:–—-][ \t]?(?:…|\.\.\.)$/u;
const FENCE = /^[ \t]*(?:```|~~~)/;

const quoted = (text: string): string => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);

/** Every trace of the record in the answer, each as `<kind> "<what>"`; none for an answer fit to hand over. */
export function recordLeaks(answer: string): string[] {
  const found: string[] = [];
  const add = (kind: string, matches: Iterable<RegExpMatchArray | string>) => {
    for (const m of matches) found.push(`${kind} ${quoted(typeof m === 'string' ? m : m[0].trim())}`);
  };
  add('point id', answer.matchAll(POINT_ID));
  for (const pattern of RECORD_IDS) add('record id', answer.matchAll(pattern));
  add('deliberation id', answer.matchAll(DELIBERATION_ID));
  add('parley URI', answer.matchAll(PARLEY_URI));
  add('file path', answer.matchAll(MACHINE_PATH));
  add('file path', [...answer.matchAll(TEMP_PATH)].filter((m) => SCRATCH.test(m[0])));
  add('cut-off line', answer.matchAll(MORE_CHARACTERS));
  add('cut-off line', cutLines(answer));
  return [...new Set(found)];
}

/** Lines outside code blocks that end on an ellipsis right after a word: cut, not an elision. */
function cutLines(answer: string): string[] {
  let inFence = false;
  const cut: string[] = [];
  for (const line of answer.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    const trimmed = line.trimEnd();
    if (!inFence && CUT_LINE.test(trimmed) && !/^[ \t]*(?:\/\/|#|\/\*|\*)[ \t]*(?:…|\.\.\.)/.test(trimmed)) cut.push(trimmed.slice(-60));
  }
  return cut;
}
