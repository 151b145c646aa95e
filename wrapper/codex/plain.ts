/**
 * Plain (non --json) `codex exec` output. stdout holds only the final answer plus one newline;
 * everything else is on stderr. The answer may itself contain lines `codex` or `tokens used`,
 * so the answer comes from stdout only and stderr is read for the header and the LAST token line.
 */
export interface ParsedPlainRun {
  answer: string;
  sessionId?: string;
  model?: string;
  /** `tokens used` total, commas stripped; cumulative over the thread on resume. */
  totalTokens?: number;
  warnings: string[];
  /** `ERROR: ...` lines, in order. */
  errors: string[];
}

const HEADER_RULE = '--------';

export function parsePlainOutput(stdout: string, stderr: string): ParsedPlainRun {
  const answer = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  const lines = stderr.split('\n');
  const header = headerLines(lines);
  const result: ParsedPlainRun = { answer, warnings: [], errors: [] };

  for (const line of header) {
    const sessionMatch = /^session id:\s*(\S+)\s*$/.exec(line);
    if (sessionMatch?.[1]) result.sessionId = sessionMatch[1];
    const modelMatch = /^model:\s*(\S+)\s*$/.exec(line);
    if (modelMatch?.[1]) result.model = modelMatch[1];
  }

  for (const line of lines) {
    if (line.startsWith('warning: ')) result.warnings.push(line.slice('warning: '.length));
    else if (line.startsWith('ERROR: ')) result.errors.push(line.slice('ERROR: '.length));
  }

  const tokenMatches = [...stderr.matchAll(/^tokens used\n([\d,]+)[ \t]*$/gm)];
  const lastTokens = tokenMatches.at(-1)?.[1];
  if (lastTokens !== undefined) result.totalTokens = Number(lastTokens.replace(/,/g, ''));
  return result;
}

/** The lines between the first two `--------` rules (workdir, model, ..., session id). */
function headerLines(lines: string[]): string[] {
  const start = lines.indexOf(HEADER_RULE);
  if (start < 0) return [];
  const end = lines.indexOf(HEADER_RULE, start + 1);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
