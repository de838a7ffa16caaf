import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../core/logger.js';

/** A logger that can name the work it logs for (pino's, and so Fastify's, is one). */
export interface ContextLogger extends Logger {
  child(bindings: Record<string, unknown>): ContextLogger;
}

/** The logger of the work in progress: a request's (it names the request id) or a task's (it names the task). */
const current = new AsyncLocalStorage<ContextLogger>();

/** Runs `work` so that everything it logs through a contextual logger goes through `log`. */
export function withLogger<T>(log: ContextLogger, work: () => T): T {
  return current.run(log, work);
}

/**
 * A logger that writes through the logger of the work in progress, and through `root` outside any. The services
 * get this one, so that a line the core logs while serving a request carries the request's id (Fastify's request
 * logger binds it) without the core knowing of requests, and a line logged by a background task names the task.
 */
export function contextualLogger<L extends ContextLogger>(root: L): L {
  return new Proxy(root, {
    get(target, property) {
      const log = current.getStore() ?? target;
      const value: unknown = Reflect.get(log, property);
      return typeof value === 'function' ? value.bind(log) : value;
    },
  });
}
