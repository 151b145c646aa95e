import { z } from 'zod';
import { redact } from '../../schemas/secrets.js';

/**
 * `codex exec --json` events (0.169). Every line is validated; an unknown shape is kept, never fatal.
 * Upstream defines them in codex-rs/exec/src/exec_events.rs; @openai/codex-sdk mirrors them as types
 * (not imported: it lags the CLI and pins its own copy of it, see CONTRIBUTING.md). The shapes it
 * declares are a test table in test/wrapper/codex/parsers.test.ts.
 */
const count = z.number().int().nonnegative();

export const CodexRawUsage = z.looseObject({
  input_tokens: count,
  cached_input_tokens: count.default(0),
  cache_write_input_tokens: count.optional(),
  output_tokens: count,
  reasoning_output_tokens: count.default(0),
});
export type CodexRawUsage = z.infer<typeof CodexRawUsage>;

const AgentMessageItem = z.looseObject({ id: z.string(), type: z.literal('agent_message'), text: z.string() });
const ReasoningItem = z.looseObject({ id: z.string(), type: z.literal('reasoning'), text: z.string() });
const CommandExecutionItem = z.looseObject({
  id: z.string(),
  type: z.literal('command_execution'),
  command: z.string(),
  aggregated_output: z.string().default(''),
  exit_code: z.number().int().nullable().default(null),
  status: z.string(),
});
/** A NON-fatal warning item (e.g. unknown model metadata). */
const ErrorItem = z.looseObject({ id: z.string(), type: z.literal('error'), message: z.string() });
const OtherItem = z.looseObject({ id: z.string().optional(), type: z.string() });

export const CodexItem = z.union([AgentMessageItem, ReasoningItem, CommandExecutionItem, ErrorItem, OtherItem]);
export type CodexItem = z.infer<typeof CodexItem>;

export const CodexEvent = z.union([
  z.looseObject({ type: z.literal('thread.started'), thread_id: z.string() }),
  z.looseObject({ type: z.literal('turn.started') }),
  z.looseObject({ type: z.literal('turn.completed'), usage: CodexRawUsage }),
  z.looseObject({ type: z.literal('turn.failed'), error: z.looseObject({ message: z.string() }) }),
  z.looseObject({ type: z.enum(['item.started', 'item.updated', 'item.completed']), item: CodexItem }),
  /** A stream error or a reconnect notice; `turn.failed` follows when it is fatal. */
  z.looseObject({ type: z.literal('error'), message: z.string() }),
  z.looseObject({ type: z.string() }),
]);
export type CodexEvent = z.infer<typeof CodexEvent>;

export interface ParsedJsonRun {
  events: CodexEvent[];
  threadId?: string;
  /** The last agent message of the turn: what plain mode prints on stdout. */
  answer: string;
  commands: { command: string; exitCode: number | null; output: string }[];
  reasoning: string[];
  /** As reported: cumulative over the thread on resume. */
  usage?: CodexRawUsage;
  turnFailed?: string;
  /** Top-level `error` events (reconnects, stream errors). */
  streamErrors: string[];
  warnings: string[];
}

/** A progress line for an event: its type, and Codex's own words when it reports an error or a warning (a reconnect, a provider it cannot reach). */
export function eventLine(event: CodexEvent): string {
  const data = event as { type: string; message?: unknown; item?: { type?: unknown; message?: unknown } };
  const message = typeof data.message === 'string' ? data.message : data.item?.type === 'error' && typeof data.item.message === 'string' ? data.item.message : undefined;
  return message === undefined ? event.type : `${event.type}: ${redact(message).slice(0, 300)}`;
}

/** Parses one stdout line; undefined for a blank line, `{ type: 'unparsed' }` for a line that is not JSON. */
export function parseEventLine(line: string): CodexEvent | undefined {
  const trimmed = line.trim();
  if (!trimmed) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return { type: 'unparsed', line: trimmed };
  }
  const parsed = CodexEvent.safeParse(json);
  return parsed.success ? parsed.data : { type: 'unparsed', line: trimmed };
}

export function parseJsonEvents(stdout: string): ParsedJsonRun {
  const run: ParsedJsonRun = { events: [], answer: '', commands: [], reasoning: [], streamErrors: [], warnings: [] };
  for (const line of stdout.split('\n')) {
    const event = parseEventLine(line);
    if (event) applyEvent(run, event);
  }
  return run;
}

function applyEvent(run: ParsedJsonRun, event: CodexEvent): void {
  run.events.push(event);
  const data = event as Record<string, unknown>;
  switch (event.type) {
    case 'thread.started':
      run.threadId = String(data.thread_id);
      return;
    case 'turn.completed':
      run.usage = CodexRawUsage.parse(data.usage);
      return;
    case 'turn.failed':
      run.turnFailed = String((data.error as { message: string }).message);
      return;
    case 'error':
      run.streamErrors.push(String(data.message));
      return;
    case 'unparsed':
      run.warnings.push(`unparsed stdout line: ${String(data.line).slice(0, 200)}`);
      return;
    case 'item.completed':
      applyCompletedItem(run, data.item as CodexItem);
      return;
    default:
      return;
  }
}

function applyCompletedItem(run: ParsedJsonRun, item: CodexItem): void {
  const data = item as Record<string, unknown>;
  if (item.type === 'agent_message' && typeof data.text === 'string') run.answer = data.text;
  else if (item.type === 'reasoning' && typeof data.text === 'string') run.reasoning.push(data.text);
  else if (item.type === 'error' && typeof data.message === 'string') run.warnings.push(data.message);
  else if (item.type === 'command_execution' && typeof data.command === 'string') {
    run.commands.push({
      command: data.command,
      exitCode: typeof data.exit_code === 'number' ? data.exit_code : null,
      output: typeof data.aggregated_output === 'string' ? data.aggregated_output : '',
    });
  }
}
