import Module from 'node:module';
import type { PyodideInterface } from 'pyodide';
import { wasm } from './wasm.js';

/**
 * The JavaScript layer of the isolation, for the case where Python code gets hold of a JavaScript
 * object despite the Python fence. Pyodide on Node is not sandboxed by itself: its C library spawns
 * shell commands for `os.system`, opens real TCP connections for sockets, and its loader leaves a
 * global `require` that hands out `fs` and `child_process`. Everything here fails closed: a step
 * that does not take effect stops the worker from starting.
 */

/** Emscripten's errno for EACCES: Python sees `PermissionError: [Errno 2] Permission denied`. */
const EACCES = 2;

/**
 * The WebAssembly module reaches the host only through its imports. Those that leave the process
 * are replaced, which cuts the path for every caller, C or Python. The signal check is replaced too:
 * Pyodide's reads the interrupt buffer and then clears it in a second step, so an interrupt written
 * between the two is lost (a tight loop loses about one in four); an atomic exchange loses none.
 */
function replacementImports(interrupt: Int32Array): Record<string, () => number> {
  return {
    _emscripten_system: () => -1,
    __syscall_socket: () => -EACCES,
    _Py_CheckEmscriptenSignals_Helper: () => Atomics.exchange(interrupt, 0, 0),
  };
}

/** Wraps WebAssembly.instantiate while Pyodide loads; returns the function that unwraps it. */
export function replaceWasmImports(interrupt: Int32Array): () => void {
  const instantiate = wasm.instantiate;
  const replacements = replacementImports(interrupt);
  let missing: string[] | undefined;
  wasm.instantiate = (source, imports) => {
    const env = imports?.env;
    // Only the main Pyodide module imports the system call; other modules pass through untouched.
    if (env && '_emscripten_system' in env) {
      missing = Object.keys(replacements).filter((name) => !(name in env));
      Object.assign(env, replacements);
    }
    return instantiate.call(wasm, source, imports);
  };
  return () => {
    wasm.instantiate = instantiate;
    if (!missing) throw new Error('sandbox: the Pyodide module was not instantiated through the import guard');
    if (missing.length) throw new Error(`sandbox: the Pyodide module no longer imports ${missing.join(', ')}`);
  };
}

/** Globals that reach the host (network, processes, files, other threads). */
const HOST_GLOBALS = [
  'require', // Pyodide's loader leaves this: require('child_process') would work from Python.
  'process',
  'fetch',
  'WebSocket',
  'EventSource',
  'XMLHttpRequest',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'importScripts',
  'navigator',
];

export function lockDownRealm(pyodide: PyodideInterface): void {
  removeHostGlobals();
  refuseCodeGeneration();
  closeModuleLoader();
  stripPyodideApi(pyodide);
  silenceConsole();
}

function removeHostGlobals(): void {
  const scope = globalThis as Record<string, unknown>;
  for (const name of HOST_GLOBALS) {
    delete scope[name];
    if (name in scope) throw new Error(`sandbox: could not remove the global '${name}'`);
  }
}

/**
 * With no way to turn a string into code, a JavaScript object reached from Python gives no route to
 * `import()`, `process` or anything else the realm no longer names. Pyodide itself only needs
 * `Function` for `instanceof`, which the stand-in keeps working through its prototype.
 */
function refuseCodeGeneration(): void {
  // biome-ignore lint/suspicious/noShadowRestrictedNames: the stand-in is named Function, as the constructor it replaces.
  const refuse = function Function(): never {
    throw new EvalError('code generation from strings is disabled in the sandbox');
  };
  refuse.prototype = Function.prototype;
  // biome-ignore lint/complexity/useArrowFunction: one of each kind of function, to reach each kind's prototype.
  const functionKinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const prototype of functionKinds.map((fn) => Object.getPrototypeOf(fn) as object)) {
    Object.defineProperty(prototype, 'constructor', { value: refuse, writable: false, configurable: false });
  }
  for (const name of ['Function', 'eval']) {
    Object.defineProperty(globalThis, name, { value: refuse, writable: false, configurable: false });
  }
  if (compilesStrings()) throw new Error('sandbox: code generation is still possible');
}

function compilesStrings(): boolean {
  try {
    (() => {}).constructor('return 1');
    return true;
  } catch {
    return false;
  }
}

/** Emscripten keeps its own `require` and calls it lazily (`ws` for sockets, `child_process` for system()). */
function closeModuleLoader(): void {
  const loader = Module as unknown as { _load: (...args: unknown[]) => unknown };
  loader._load = () => {
    throw new Error('loading modules is disabled in the sandbox');
  };
}

/** Members of Pyodide's internal API that read host files or open host sockets. */
const HOST_REACHING_INTERNALS = [
  'loadBinaryFile',
  'loadDynlib',
  'initializeNodeSockFS',
  'install',
  'packageManager',
  'package_loader',
  'lockFilePromise',
];

/**
 * Pyodide's API objects are what Python-side Pyodide code held before the fence emptied it.
 * Keep only the in-memory filesystem (no NODEFS mount of the host), empty the public API object
 * (the worker has already taken the few functions it uses) and take the host-reaching members
 * out of the internal one, which Pyodide itself still uses.
 */
function stripPyodideApi(pyodide: PyodideInterface): void {
  const filesystems = pyodide.FS.filesystems as Record<string, unknown>;
  for (const name of Object.keys(filesystems)) if (name !== 'MEMFS') delete filesystems[name];
  const api = pyodide as unknown as Record<string, unknown>;
  const internal = api._api as Record<string, unknown>;
  for (const name of HOST_REACHING_INTERNALS) delete internal[name];
  for (const name of Object.getOwnPropertyNames(api)) delete api[name];
  if ('mountNodeFS' in api || 'NODEFS' in filesystems || 'loadBinaryFile' in internal)
    throw new Error('sandbox: the Pyodide API is still exposed');
}

/** Output from Python goes through the runner's capture; nothing in the worker may write to the server's log. */
function silenceConsole(): void {
  const target = console as unknown as Record<string, unknown>;
  for (const name of Object.keys(target)) if (typeof target[name] === 'function') target[name] = () => {};
}
