import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/**
 * `tools/call` as the SDK's schema has it, with `arguments` of any type, for registering the tools/call handler.
 * The SDK parses a request with the schema its handler was registered with, and a failure there is answered as
 * -32603, an internal error: a call whose arguments were not an object got that. With this schema the request
 * passes that parse and reaches the SDK Server's own check of tools/call, which answers -32602 (invalid params), as
 * the API answers a body of the wrong type with a 4xx; the handler then only ever sees an object.
 */
export const CallToolRequest = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.extend({ arguments: z.unknown().optional() }),
});

/** The arguments of a call the SDK Server let through to the handler: an object, or none (an empty one). */
export const toolArguments = (request: z.infer<typeof CallToolRequest>): Record<string, unknown> =>
  (request.params.arguments ?? {}) as Record<string, unknown>;
