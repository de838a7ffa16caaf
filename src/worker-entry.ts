import { fileURLToPath } from 'node:url';

/**
 * Where a worker thread's script lives and how to start it. Built code runs `.js` as is; when the
 * service runs from TypeScript sources (tests, `npm run dev`) the worker needs the tsx loader too.
 */
export function workerEntry(scriptUrl: URL): { filename: string; execArgv: string[] } {
  const filename = fileURLToPath(scriptUrl);
  return { filename, execArgv: filename.endsWith('.ts') ? ['--import', 'tsx'] : [] };
}

/** The URL of a sibling module, keeping the extension of the calling module (`.ts` in dev, `.js` when built). */
export function siblingModule(callerUrl: string, basename: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${basename}${extension}`, callerUrl);
}
