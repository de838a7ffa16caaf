/**
 * Wraps a start-up routine so that concurrent and repeated calls share one run, while a failed run
 * is forgotten and the next call tries again (the endpoint may come back, a file may appear).
 */
export function onceUntilFailure<T>(start: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= start().catch((error: unknown) => {
      running = undefined;
      throw error;
    });
    return running;
  };
}
