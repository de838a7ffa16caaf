import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

/**
 * Route schemas are compiled when a request first needs them (validation.ts, serialization.ts): compiling all of them
 * at every server start weighed on test servers and on processes that serve a few routes. A long-running server
 * compiles what is left once it is ready instead (`compileWhatIsLeft`), so that the first call of a route after a
 * start does not pay for it (BENCHMARKS.md, "the first calls after a start"). Only a process that asked for that
 * (`keepForLater`) keeps the list: every test app would otherwise add its routes to it for good.
 */
let notYetCompiled: Set<() => void> | null = null;

/** From now on, schemas not yet compiled are kept for `compileWhatIsLeft` (the server's entry calls this). */
export function keepForLater(): void {
  notYetCompiled ??= new Set();
}

/** `compile` run once, when the returned function is first called or by `compileWhatIsLeft`, whichever comes first. */
export function onFirstUse<T>(compile: () => T): () => T {
  let compiled: { value: T } | undefined;
  const get = (): T => {
    if (!compiled) {
      compiled = { value: compile() };
      notYetCompiled?.delete(ensure);
    }
    return compiled.value;
  };
  const ensure = () => void get();
  notYetCompiled?.add(ensure);
  return get;
}

/**
 * Compiles every kept schema no request has needed yet, one per turn of the event loop, so that a request arriving
 * meanwhile waits for one compile at most. Resolves with how many it compiled; one that fails is left to its route.
 */
export async function compileWhatIsLeft(): Promise<number> {
  let compiled = 0;
  for (const ensure of [...(notYetCompiled ?? [])]) {
    await yieldToEventLoop();
    // A request may have compiled it while this waited.
    if (!notYetCompiled?.has(ensure)) continue;
    try {
      ensure();
      compiled++;
    } catch {
      // Left for its first request, which fails with the reason as it did before this existed.
      notYetCompiled.delete(ensure);
    }
  }
  return compiled;
}
