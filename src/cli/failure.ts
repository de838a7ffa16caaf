import { ConfigError } from '../config.js';
import { AppError } from '../errors.js';
import { ConnectionError, MemdError } from './remote.js';

/** Exit statuses of every command but `doctor` (which has its own, see doctor-checks.ts). */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A command that ran and failed for a reason it can state: the message is printed as is, with this exit status. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

/** stdout's reader went away (`memd export | head`): it has what it wanted, so the command stops without a word. */
export const isBrokenPipe = (error: unknown): boolean => (error as { code?: string } | null)?.code === 'EPIPE';

/** The lines that tell the user why a command failed: the server's words for an API error, no stack for what we expect. */
export function describeFailure(error: unknown): string {
  if (error instanceof ConnectionError)
    return `${error.message}\n(is the server running? --url or MEMD_URL say where it is)`;
  if (error instanceof MemdError) {
    const details = error.details.map((detail) => `  ${detail.path || '(body)'}: ${detail.message}`);
    return [`${error.message} (${error.status ? `${error.status} ` : ''}${error.code})`, ...details].join('\n');
  }
  // What a local command (reembed, doctor) refuses is said the way the API would say it.
  if (error instanceof CommandFailure || error instanceof ConfigError || error instanceof AppError)
    return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
