import { move } from 'piscina';
import { loadUseLite } from './use-lite.js';

/**
 * Worker-thread side of the `local` provider: one USE-lite instance per thread. The handlers are exported as
 * promises that resolve once the model is loaded and has run once (the first inference compiles WASM kernels):
 * piscina counts a thread as ready only then, so no task waits for a model to load.
 */
const model = loadUseLite().then(async (loaded) => {
  await loaded.embed(['Warming up the sentence encoder.']);
  return loaded;
});

/**
 * Embeds non-blank texts. The raw rows are moved (not copied) to the caller, which receives a
 * plain Float32Array: piscina unwraps the `move` marker.
 */
export default model.then(
  (loaded) =>
    async (texts: string[]): Promise<ReturnType<typeof move>> =>
      move(await loaded.embed(texts)),
);

/** Answers once the thread is ready, which means its model is warm (above). */
export const warmUp = model.then(() => async (): Promise<void> => {});
