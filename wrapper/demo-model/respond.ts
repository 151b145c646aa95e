/**
 * What the demo model says to a request: it recognises which protocol step is asking (by the reply
 * schema's name, else by the prompt), answers as that step's canned participant, and fills its JSON
 * out to the schema it was sent. A request it does not recognise gets a value that fits the schema,
 * or a sentence saying what it is.
 */
import { consulteeReply } from './consultee.js';
import { critReply, debateTurn, rcaReply } from './debate.js';
import { dialogicKind, dialogicReply } from './dialogic.js';
import { completeToSchema, fillSchema } from './schema-fill.js';
import { subjectOf } from './pick.js';

export interface ChatMessage {
  role: string;
  content: string;
}

export interface ReplyRequest {
  model: string;
  messages: ChatMessage[];
  /** The json_schema response format's name and schema, when one was sent. */
  schemaName?: string;
  schema?: unknown;
}

export const NOT_A_MIND = 'I am parley\'s local demo model: canned replies chosen by rules, no language model behind them.';

/** A repair prompt (the caller could not read the last reply) is answered as the request before it was. */
const REPAIR = /could not be (used|read as the JSON)/;

export function replyText(request: ReplyRequest): string {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  const users = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
  const prompt = [...users].reverse().find((text) => !REPAIR.test(text)) ?? users.at(-1) ?? '';
  const json = (value: Record<string, unknown>) => JSON.stringify(completeToSchema(value, request.schema));
  const name = request.schemaName;
  if (name === 'debate_turn' || /one of \d+ agents debating/.test(system)) return json(debateTurn(request.model, system, prompt));
  if (name === 'crit_scores' || /You audit the reasoning of agents/.test(prompt)) return json(critReply(prompt));
  if (name === 'rca_verdicts' || /consistency between its reasoning and its output/.test(prompt)) return json(rcaReply(prompt));
  const dialogic = dialogicKind(name, prompt);
  if (dialogic) return json(dialogicReply(dialogic, system, prompt));
  if (/=== USER QUESTION ===/.test(prompt)) return consulteeReply(prompt);
  if (request.schema !== undefined) return JSON.stringify(fillSchema(request.schema, subjectOf(prompt)));
  return `${NOT_A_MIND} I have no canned answer for this prompt; point parley's protocols (debate, dialogic, sweeps) at me instead.`;
}
