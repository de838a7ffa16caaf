import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';

/** MCP's own code for a resource that does not exist (the protocol leaves resource errors to JSON-RPC). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * A failure of a resource read or a prompt, which the protocol reports as a JSON-RPC error (tools report theirs as
 * results, see toolError): the API's code and message, and the code again in `data` for clients that branch on it.
 */
export function protocolError(error: unknown): McpError {
  if (!(error instanceof AppError) || error.statusCode >= 500)
    return new McpError(ErrorCode.InternalError, error instanceof AppError ? error.message : 'internal error');
  const code = error.statusCode === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
  return new McpError(code, `${error.code}: ${error.message}`, { code: error.code });
}
