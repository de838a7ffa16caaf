import { threadId } from 'node:worker_threads';
import { move } from 'piscina';
import { loadUseLite, type UseLiteModel } from './use-lite.js';

/** Worker-thread side of the `local` provider: one USE-lite instance per thread, loaded on first use. */
let model: Promise<UseLiteModel> | undefined;

/**
 * Embeds non-blank texts. The raw rows are moved (not copied) to the caller, which receives a
 * plain Float32Array: piscina unwraps the `move` marker.
 */
export default async function embedBatch(texts: string[]): Promise<ReturnType<typeof move>> {
  model ??= loadUseLite();
  return move(await (await model).embed(texts));
}

/** Loads the model and runs it once (the first inference compiles WASM kernels); says which thread did. */
export async function warmUp(): Promise<number> {
  await embedBatch(['Warming up the sentence encoder.']);
  return threadId;
}
