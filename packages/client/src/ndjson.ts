/** Newline-delimited JSON: the export's lines, parsed as they arrive, and lines sent as they are produced. */

/** Each non-blank line of `stream`, parsed. Stopping early (a `break`) cancels the stream. */
export async function* parseLines<T>(stream: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      pending += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = done ? '' : lines.pop()!;
      for (const line of lines) if (line.trim() !== '') yield JSON.parse(line) as T;
      if (done) break;
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** What `toStream` sends: objects as one JSON line each, strings as lines, bytes as they are. */
export type LineSource = AsyncIterable<unknown> | Iterable<unknown>;

/** A byte stream of `source`, read from it only as the stream is read. */
export function toStream(source: LineSource): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator =
    Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) return controller.close();
      if (value instanceof Uint8Array) controller.enqueue(value);
      else if (typeof value === 'string')
        controller.enqueue(encoder.encode(value.endsWith('\n') ? value : `${value}\n`));
      else controller.enqueue(encoder.encode(`${JSON.stringify(value)}\n`));
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}
