import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { Static, TObject } from 'typebox';
import type { Logger } from '../core/logger.js';
import { AppError } from '../errors.js';
import type { ToolContext } from './caller.js';

/** What a tool does to memd's data, for clients that ask before a tool changes or deletes something. */
export type ToolEffect = 'reads' | 'writes' | 'deletes';

/** One MCP tool: a thin shell over the core operation the matching HTTP route calls. */
export interface Tool {
  name: string;
  title: string;
  /** Read by the model choosing a tool: what it is for and when to use it. */
  description: string;
  /** The arguments, declared with the API's own TypeBox fields (converted for the SDK by inputSchemaOf). */
  input: TObject;
  effect: ToolEffect;
  /** The result, as JSON (or text, sent as it is). Typed by `defineTool`; called with validated arguments. */
  run(args: never, context: ToolContext): Promise<unknown>;
}

/** A tool whose `run` is typed by its input schema. */
export const defineTool = <S extends TObject>(tool: Omit<Tool, 'input' | 'run'> & { input: S; run(args: Static<S>, context: ToolContext): Promise<unknown> }): Tool => tool;

export const annotationsOf = (tool: Tool): ToolAnnotations => ({
  title: tool.title,
  readOnlyHint: tool.effect === 'reads',
  destructiveHint: tool.effect === 'deletes',
  openWorldHint: false,
});

/** A result as the model reads it: compact JSON, or text as it is. */
export function toolResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}

/**
 * A failure as an MCP tool error (`isError`), which the model reads and can act on, rather than a protocol error:
 * the API's code, message and field details. Anything but an AppError is a fault of ours: logged, not described.
 */
export function toolError(error: unknown, log: Logger, tool: string): CallToolResult {
  const known = error instanceof AppError ? error : null;
  if (!known || known.statusCode >= 500) log.error({ err: error, tool }, 'MCP tool failed');
  const body = known
    ? { code: known.code, message: known.message, ...(known.details.length > 0 && { details: known.details }), ...(known.retryAfter !== undefined && { retry_after: known.retryAfter }) }
    : { code: 'internal_error', message: 'internal error' };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}
