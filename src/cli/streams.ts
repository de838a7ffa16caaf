import { once } from 'node:events';
import { createReadStream, createWriteStream, fstatSync, renameSync, rmSync, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { CommandFailure } from './failure.js';

/** `-` or nothing: standard input/output. */
const isStandard = (file: string | undefined): file is undefined | '-' => file === undefined || file === '-';

export interface Input {
  chunks: AsyncIterable<Buffer>;
  /** Bytes to read, when known (a file, or stdin redirected from one); null for a pipe. */
  size: number | null;
}

/** A file, or stdin when it is not a terminal (nobody types NDJSON). */
export function openInput(file: string | undefined): Input {
  if (!isStandard(file)) return { chunks: createReadStream(file), size: statSync(file).size };
  if (process.stdin.isTTY) throw new CommandFailure('nothing to read: name a file, or pipe NDJSON into stdin');
  const stdin = fstatSync(0);
  return { chunks: process.stdin, size: stdin.isFile() ? stdin.size : null };
}

export interface Output {
  write(text: string): Promise<void>;
  /** Everything written is in place: a file appears under its name only now. */
  commit(): Promise<void>;
  /** After a failure: a file is left out, nothing half-written stays behind. */
  discard(): void;
  /** Standard output, which may share the terminal with a progress bar. */
  readonly toStdout: boolean;
}

/**
 * A file (written beside its name as `<file>.partial` and renamed when complete, so that an interrupted export never
 * looks like a whole one) or stdout.
 */
export function openOutput(file: string | undefined): Output {
  const stream: Writable = isStandard(file) ? process.stdout : createWriteStream(`${file}.partial`);
  // A stream that fails (a full disk; stdout's reader gone, EPIPE) emits 'error' once, and never 'drain' after it.
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  const write = async (text: string) => {
    if (stream.errored) throw stream.errored;
    if (!stream.write(text)) await Promise.race([once(stream, 'drain'), failed]);
  };
  if (isStandard(file)) return { write, commit: async () => undefined, discard: () => undefined, toStdout: true };
  return {
    write,
    async commit() {
      stream.end();
      await finished(stream);
      renameSync(`${file}.partial`, file);
    },
    discard() {
      stream.destroy();
      rmSync(`${file}.partial`, { force: true });
    },
    toStdout: false,
  };
}
