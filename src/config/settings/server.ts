import { flag, integer, text } from '../setting.js';

/** The HTTP server: where it listens, what it accepts, how it stops. */
export const SERVER = {
  host: text({ name: 'MEMD_HOST', default: '127.0.0.1', accepts: 'address', meaning: 'listen address' }),
  port: integer({ name: 'MEMD_PORT', default: 61001, min: 0, max: 65535, meaning: 'listen port' }),
  logLevel: text({
    name: 'MEMD_LOG_LEVEL',
    default: 'info',
    accepts: 'pino level',
    meaning:
      'pino log level: `trace`, `debug`, `info`, `warn`, `error`, `fatal` or `silent` (the embedding peer reads it too)',
  }),
  bodyLimitBytes: integer({
    name: 'MEMD_BODY_LIMIT_BYTES',
    default: 10 * 1024 ** 2,
    min: 1024,
    max: 1024 ** 3,
    meaning: 'largest request body of an ordinary route (413 beyond)',
  }),
  importBodyLimitBytes: integer({
    name: 'MEMD_IMPORT_BODY_LIMIT_BYTES',
    default: 512 * 1024 ** 2,
    min: 1024,
    max: 16 * 1024 ** 3,
    meaning: 'largest body of a workspace import (413 beyond)',
  }),
  requestTimeoutSeconds: integer({
    name: 'MEMD_REQUEST_TIMEOUT_SECONDS',
    default: 600,
    min: 0,
    max: 86_400,
    meaning:
      'longest a client may take to send one request, body included (an upload, an import: the default takes 512 MiB at 0.9 MB/s); beyond it 408 and the connection is closed, so that a client that never sends the body it announced does not hold a connection. Answers are not limited (an export streams as long as it takes); 0: no limit',
  }),
  // Far below where recursive walks of a value (validation, JSON.stringify, drivers) run out of stack.
  jsonMaxDepth: integer({
    name: 'MEMD_JSON_MAX_DEPTH',
    default: 64,
    min: 2,
    max: 1000,
    meaning:
      'deepest nesting of objects and arrays in JSON a client sends (a body, an import line, a form field; `{}` is one level); deeper is 400 `invalid_json` before validation',
  }),
  shutdownTimeoutMs: integer({
    name: 'MEMD_SHUTDOWN_TIMEOUT_MS',
    default: 10_000,
    min: 0,
    max: 600_000,
    meaning:
      'how long a stop (SIGTERM, SIGINT) may take (requests in flight, sandbox checkpoints, the vector index snapshot) before the process exits anyway',
  }),
};

/** How much of /v1 a client may use. */
export const RATE_LIMIT = {
  perMinute: integer({
    name: 'MEMD_RATE_LIMIT_PER_MINUTE',
    default: 0,
    min: 0,
    max: 10_000_000,
    meaning:
      'requests per client and minute on `/v1` (a client is its API key; the admin key is one client; without auth, its address); beyond it 429 with `retry_after` and `Retry-After`. Each node counts on its own; 0: no limit',
  }),
};

/** MCP beside /v1. */
export const MCP = {
  enabled: flag({
    name: 'MEMD_MCP_ENABLED',
    default: true,
    meaning:
      'MCP over streamable HTTP at `/mcp` (same auth, workspaces and rate limit as `/v1`, counted apart); `false`: no `/mcp`',
  }),
};
