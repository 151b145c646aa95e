/**
 * Scripts for the two model servers of the plugin end-to-end test. The Anthropic side plays the
 * orchestrating model: it invokes the parley skill, then calls parley's tools as Claude Code names
 * them, choosing each call from the previous tool_result (orchestrator.ts). The Responses side
 * plays Codex: it answers from the prompt parley built (the iteration line, the open challenges or
 * objections), and plays the arbiter when it gets the arbitration prompt.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnthropicReply, AnthropicRequestRecord } from '../doubles/scripted-anthropic.js';
import type { ResponsesScriptStep } from '../doubles/scripted-responses.js';
import { decide, type Plan, type ToolResult } from './orchestrator.js';

export const PLUGIN_TOOL_PREFIX = 'mcp__plugin_parley_parley__';
export const SKILL_NAME = 'parley:parley';
/** SKILL.md's title line: present in a request once Claude Code injected the skill's body. */
export const SKILL_TITLE = /^# .+$/m.exec(readFileSync(path.resolve(import.meta.dirname, '../../SKILL.md'), 'utf8'))?.[0] ?? 'SKILL.md has no title';

interface Block {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  text?: string;
  is_error?: boolean;
}
interface Message {
  role: string;
  content: string | Block[];
}

export interface OrchestratorLog {
  /** Every tool call the script made, in order, with Claude Code's name for it. */
  calls: { name: string; input: Record<string, unknown> }[];
  /** Whether the request after the Skill call carried SKILL.md's text. */
  skillLoaded: boolean;
  errors: string[];
}

/** The Anthropic-side script: one function of the request, deciding from what the request shows. */
export function orchestratorScript(plan: Plan, log: OrchestratorLog): (req: AnthropicRequestRecord) => AnthropicReply {
  return (req) => {
    if (!Array.isArray(req.body?.tools)) return { text: 'parley deliberation' };
    const messages = (req.body.messages ?? []) as Message[];
    // Claude Code may add reminder messages after a tool_result: read everything since our last turn.
    const lastAssistant = messages.map((m) => m.role).lastIndexOf('assistant');
    const blocks = messages.slice(lastAssistant + 1).flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const toolResult = blocks.find((b) => b.type === 'tool_result');
    if (!toolResult) {
      // Invoked by the user as /parley:parley, the skill's text is already in the first message.
      log.skillLoaded = mentionsSkill(messages);
      return log.skillLoaded ? next(plan, undefined, log) : call(log, 'Skill', { skill: SKILL_NAME, args: plan.question });
    }
    const toolName = toolNameFor(messages, toolResult.tool_use_id);
    const resultText = flatten(toolResult.content);
    if (toolResult.is_error) {
      log.errors.push(`${toolName}: ${resultText}`);
      return { text: `ERROR from ${toolName}: ${resultText}` };
    }
    if (toolName === 'Skill') {
      log.skillLoaded = mentionsSkill(messages.slice(-1));
      return next(plan, undefined, log);
    }
    if (!toolName?.startsWith(PLUGIN_TOOL_PREFIX)) return { text: `ERROR: unexpected tool ${toolName}` };
    let parsed: ToolResult;
    try {
      parsed = JSON.parse(resultText) as ToolResult;
    } catch {
      log.errors.push(`${toolName}: not JSON: ${resultText.slice(0, 200)}`);
      return { text: `ERROR: ${toolName} returned no JSON` };
    }
    return next(plan, { tool: toolName.slice(PLUGIN_TOOL_PREFIX.length), result: parsed }, log, earlierResults(messages, toolResult));
  };
}

function next(plan: Plan, last: Parameters<typeof decide>[1], log: OrchestratorLog, earlier: ToolResult[] = []): AnthropicReply {
  let decision: ReturnType<typeof decide>;
  try {
    decision = decide(plan, last, earlier);
  } catch (error) {
    // A script that throws answers 500, and Claude Code retries for minutes: end the turn instead.
    log.errors.push(`the script failed on ${last?.tool ?? 'the first turn'}: ${String(error)}`);
    return { text: `ERROR: ${String(error)}` };
  }
  if ('text' in decision) return { text: decision.text };
  return call(log, PLUGIN_TOOL_PREFIX + decision.tool, decision.input);
}

function call(log: OrchestratorLog, name: string, input: Record<string, unknown>): AnthropicReply {
  log.calls.push({ name, input });
  return { toolUse: { name, input, id: `toolu_parley_${log.calls.length}` } };
}

/** SKILL.md's body, as Claude Code injects it when the skill is invoked either way. */
function mentionsSkill(messages: Message[]): boolean {
  return JSON.stringify(messages).includes(SKILL_TITLE);
}

/** The parley results the conversation already holds before `latest`, oldest first (what the model has read so far). */
function earlierResults(messages: Message[], latest: Block): ToolResult[] {
  const out: ToolResult[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result' || block === latest || block.tool_use_id === latest.tool_use_id || block.is_error) continue;
      if (!toolNameFor(messages, block.tool_use_id)?.startsWith(PLUGIN_TOOL_PREFIX)) continue;
      try {
        out.push(JSON.parse(flatten(block.content)) as ToolResult);
      } catch {
        // not a parley result the model could read as JSON
      }
    }
  }
  return out;
}

function toolNameFor(messages: Message[], toolUseId: string | undefined): string | undefined {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const use = message.content.find((b) => b.type === 'tool_use' && b.id === toolUseId);
    if (use) return use.name;
  }
  return undefined;
}

function flatten(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: Block) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
}

export interface ConsulteeReplies {
  first: string;
  /** Standard and minimal modes: the answer to an open challenge, by its id. */
  defense: (challengeId: string) => string;
  /** Quick mode: the answer to an objection, by the point's id. */
  objection: (pointId: string) => string;
  /** The arbiter's reply, given the item lines of the arbitration prompt. */
  arbitration: (items: string[]) => string;
}

export const ARBITRATION_MARKER = 'You review the outcome of a deliberation';

/**
 * The Codex-side script, deciding from the prompt: the first reply; a defense of the challenge the
 * prompt lists, or an answer to the objection (quick mode); "No further points." when nothing is
 * asked; and the arbiter's lines when the prompt is the arbitration's.
 */
export function consulteeScript(replies: ConsulteeReplies): (req: { body: any }) => ResponsesScriptStep {
  return ({ body }) => {
    const prompt = parleyPrompt(body);
    if (prompt.includes(ARBITRATION_MARKER)) {
      const items = /Items:\n([\s\S]*?)\n\n/.exec(`${prompt}\n\n`)?.[1] ?? '';
      return { text: replies.arbitration(items.split('\n').filter((line) => /^P\d+\.\d+ /.test(line))) };
    }
    if (/Iteration 1\//.test(prompt)) return { text: replies.first };
    const challenge = /Open challenges \(answer each by id\):\n(C\d+)/.exec(prompt)?.[1];
    if (challenge) return { text: replies.defense(challenge) };
    const objection = /^Objections \(answer each by point id[^\n]*\n(P\d+\.\d+)/m.exec(prompt)?.[1];
    if (objection) return { text: replies.objection(objection) };
    return { text: 'No further points.' };
  };
}

/** The newest parley prompt in a Responses request (Codex adds its own context messages). */
export function parleyPrompt(body: any): string {
  const items = Array.isArray(body?.input) ? body.input : [];
  for (const item of [...items].reverse()) {
    if (item?.role !== 'user' || !Array.isArray(item.content)) continue;
    const text = item.content.map((c: { text?: string }) => c.text ?? '').join('\n');
    if (text.includes('Iteration ') || text.includes(ARBITRATION_MARKER)) return text;
  }
  return '';
}
