/**
 * What core code logs through, with a structured first argument. Pino (and so Fastify's logger) fits it; core never
 * sees the transport's logger type.
 */
export interface Logger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}
