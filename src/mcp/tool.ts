import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import type { Static, TObject } from 'typebox';
import type { Logger } from '../core/logger.js';
import { AppError } from '../errors.js';
import { withDefaultsOptional } from '../http/caller-schema.js';
import { toAppError } from '../http/errors.js';
import { compileBodySchema } from '../http/validation.js';
import type { ToolContext } from './caller.js';

/** What a tool does to memd's data, for clients that ask before a tool changes or deletes something. */
export type ToolEffect = 'reads' | 'writes' | 'deletes';

/** One MCP tool: a thin shell over the core operation the matching HTTP route calls. */
export interface Tool {
  name: string;
  title: string;
  /** Read by the model choosing a tool: what it is for and when to use it. */
  description: string;
  /** The arguments, declared with the API's own TypeBox fields: listed as the tool's JSON Schema, checked as a body is. */
  input: TObject;
  effect: ToolEffect;
  /** Checks the arguments (and fills their defaults) exactly as an HTTP body is checked; null when they pass. */
  check(args: unknown): AppError | null;
  /** The result, as JSON (or text, sent as it is). Called with checked arguments. */
  run(args: never, context: ToolContext): Promise<unknown>;
}

type ToolSpec<S extends TObject> = Omit<Tool, 'input' | 'run' | 'check'> & {
  input: S;
  run(args: Static<S>, context: ToolContext): Promise<unknown>;
};

/** A tool whose `run` is typed by its input schema, and whose arguments are checked by the API's body validator. */
export function defineTool<S extends TObject>(spec: ToolSpec<S>): Tool {
  const validate = compileBodySchema<Static<S>>(spec.input);
  return {
    ...spec,
    check: (args) =>
      validate(args) ? null : toAppError({ validation: validate.errors, validationContext: 'arguments' }),
  };
}

/** The tool as `tools/list` shows it. */
export const listingOf = (tool: Tool): ListedTool => ({
  name: tool.name,
  title: tool.title,
  description: tool.description,
  // What a model must pass: the arguments with a default are optional, as they are in the OpenAPI document.
  inputSchema: withDefaultsOptional(tool.input) as ListedTool['inputSchema'],
  annotations: {
    title: tool.title,
    readOnlyHint: tool.effect === 'reads',
    destructiveHint: tool.effect === 'deletes',
    openWorldHint: false,
  },
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
    ? {
        code: known.code,
        message: known.message,
        ...(known.details.length > 0 && { details: known.details }),
        ...(known.retryAfter !== undefined && { retry_after: known.retryAfter }),
      }
    : { code: 'internal_error', message: 'internal error' };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}
