import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import { sentence, UserFacingError } from '../schemas/user-facing-error.js';
import { redact, redactJson } from '../schemas/secrets.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool does to the world, mapped onto the four MCP annotations. */
export type ToolEffect = 'read' | 'write' | 'write-idempotent' | 'destroy' | 'model-call';

const annotationsFor: Record<ToolEffect, { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean }> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  'write-idempotent': { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  destroy: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  'model-call': { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
};

/**
 * A refusal the caller can act on: a rule was broken or an argument was wrong.
 * Tools throw it; the kit turns it into `isError: true` with the sentence as text.
 */
export class ToolRefusal extends UserFacingError {
  constructor(
    message: string,
    readonly rule?: string,
    readonly legalMoves: string[] = [],
  ) {
    super(message, rule ? { code: rule } : {});
  }
}

export interface ToolDefinition<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  /** Only when it says more than the name; a title that repeats the description costs tokens. */
  title?: string;
  description: string;
  input: I;
  output: O;
  effect: ToolEffect;
  handler(args: z.infer<z.ZodObject<I>>, extra: ToolExtra): Promise<z.input<z.ZodObject<O>>> | z.input<z.ZodObject<O>>;
}

export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}

export function refusalText(error: ToolRefusal): string {
  const next = error.legalMoves.length > 0 ? ` Legal next moves: ${error.legalMoves.join(', ')}.` : '';
  const rule = error.rule ? `[${error.rule}] ` : '';
  return `${rule}${next ? sentence(error.message) : error.message}${next}`;
}

export function registerDefinedTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(server: McpServer, def: ToolDefinition<I, O>): void {
  // Loose: outputSchema names the keys a caller relies on; results may carry more.
  const outputSchema = z.looseObject(def.output);
  server.registerTool(
    def.name,
    {
      ...(def.title ? { title: def.title } : {}),
      description: def.description,
      inputSchema: def.input,
      outputSchema,
      annotations: annotationsFor[def.effect],
    },
    // The SDK's generic callback type cannot follow our generic shape; the input was validated by the SDK.
    (async (args: z.infer<z.ZodObject<I>>, extra: ToolExtra): Promise<CallToolResult> => {
      // Results and errors reach the model's context: known secrets are scrubbed from both.
      try {
        const structured = redactJson(outputSchema.parse(await def.handler(args, extra)) as Record<string, unknown>);
        return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
      } catch (error) {
        if (error instanceof ToolRefusal) return { isError: true, content: [{ type: 'text', text: redact(refusalText(error)) }] };
        if (error instanceof UserFacingError || error instanceof z.ZodError) return { isError: true, content: [{ type: 'text', text: redact(error.message) }] };
        if (error instanceof Error) error.message = redact(error.message);
        throw error;
      }
    }) as never,
  );
}


/** Sends a progress notification when the client asked for them (it sent a progressToken). */
export async function reportProgress(extra: ToolExtra, progress: number, total: number | undefined, message: string): Promise<void> {
  const token = extra._meta?.progressToken;
  if (token === undefined) return;
  await extra.sendNotification({
    method: 'notifications/progress',
    params: { progressToken: token, progress, ...(total === undefined ? {} : { total }), message },
  });
}
