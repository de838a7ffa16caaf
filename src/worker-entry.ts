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

/**
 * What to hand `new Worker(...)` for a module (from `siblingModule`). Built code starts the `.js`
 * file directly. A plain worker loads its entry module before `--import tsx` hooks take effect (a
 * pool such as piscina imports the task later, so `workerEntry` suffices there); for `.ts` the
 * entry is a small bootstrap that registers tsx and then imports the module.
 */
export function plainWorkerScript(scriptUrl: URL): URL {
  if (!scriptUrl.pathname.endsWith('.ts')) return scriptUrl;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const bootstrap = `const { register } = await import(${JSON.stringify(tsxApi)}); register(); await import(${JSON.stringify(scriptUrl.href)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
