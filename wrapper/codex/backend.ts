import { BackendError, type Backend, type Conversation, type ModelReply, type SendOptions } from '../backend.js';
import { runCodex, type CodexCallOptions } from './run.js';
import { strictSchemaProblem } from '../strict-schema.js';
import { jsonSchemaOf } from '../json-schema.js';

/**
 * A Backend over `codex exec`: `codex` (Codex's configured model) or `codex:<model>`.
 * A conversation with a sessionId resumes that thread; otherwise the system text and history are
 * written into the first prompt of a new thread.
 */
export function createCodexBackend(spec: string, defaults: Partial<CodexCallOptions> = {}): Backend {
  const match = /^codex(?::(.+))?$/.exec(spec);
  if (!match) throw new BackendError('bad-spec', `not a codex backend spec: ${JSON.stringify(spec)} (use "codex" or "codex:<model>")`);
  const model = match[1] ?? defaults.model;

  return {
    spec,
    async send(conversation: Conversation, prompt: string, options: SendOptions = {}): Promise<ModelReply> {
      const resuming = Boolean(conversation.sessionId);
      const result = await runCodex({
        ...defaults,
        prompt: resuming ? prompt : firstPrompt(conversation, prompt),
        ...(conversation.sessionId ? { sessionId: conversation.sessionId } : {}),
        ...(model ? { model } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...strictOutputSchema(options),
      });
      return {
        text: result.answer,
        sessionId: result.sessionId,
        usage: result.usage,
        model: result.model ?? model ?? 'codex-default',
        latencyMs: Math.round(result.durationMs),
      };
    },
  };
}

/**
 * Codex always sends --output-schema as strict; a schema strict mode refuses would make the provider
 * answer 400. Such schemas are left to the prompt's own description and the caller's validation.
 */
function strictOutputSchema(options: SendOptions): { outputSchema?: object } {
  if (!options.jsonSchema) return {};
  const schema = jsonSchemaOf(options.jsonSchema.schema);
  return strictSchemaProblem(schema) ? {} : { outputSchema: schema };
}

function firstPrompt(conversation: Conversation, prompt: string): string {
  const parts: string[] = [];
  if (conversation.system) parts.push(conversation.system);
  for (const turn of conversation.history) parts.push(`[${turn.role}]\n${turn.content}`);
  if (parts.length === 0) return prompt;
  return [...parts, `[user]\n${prompt}`].join('\n\n');
}
