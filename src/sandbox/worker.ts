/**
 * One sandbox: a worker thread hosting one Pyodide interpreter. It loads Python, installs the
 * runner and the fences, locks the JavaScript realm down, then answers one operation at a time.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { loadPyodide, type PyodideInterface } from 'pyodide';
import { lockDownRealm, replaceWasmImports } from './lockdown.js';
import { MemoryBudget, type EmscriptenFs } from './memory-budget.js';
import type { FromWorker, HostReply, OperationFailure, OperationRequest, ToWorker, WorkerInit } from './protocol.js';
import { BRIDGE_MODULES, FENCE_SOURCE } from './python/fence.js';
import { RUNNER_SOURCE } from './python/runner.js';
import { erasePackages } from './python/stdlib-archive.js';

type PyCallable = ((...args: unknown[]) => unknown) & { destroy(): void };
interface PyPair {
  get(index: number): { toJs(): unknown; destroy(): void } | string | undefined;
  destroy(): void;
}

const init = workerData as WorkerInit & { hostReplies: MessagePort };
if (!parentPort) throw new Error('the sandbox worker must run in a worker thread');
const channel = parentPort;
const send = (message: FromWorker, transfer: ArrayBuffer[] = []): void => channel.postMessage(message, transfer);

const interrupt = new Int32Array(init.interrupt);
const hostSignal = new Int32Array(init.hostSignal);
/** How often a thread waiting on the host, or sleeping, looks at the interrupt buffer. */
const HOST_POLL_MS = 50;

try {
  if (init.purpose === 'boot_image') {
    const image = await makeBootImage();
    send({ kind: 'boot_image', data: image }, [image.buffer as ArrayBuffer]);
  } else {
    const operations = await startInterpreter();
    channel.on('message', (message: ToWorker) => send(...perform(operations, message)));
    send({ kind: 'ready' });
  }
} catch (error) {
  send({ kind: 'startup_failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}

/**
 * Loads Pyodide under the sandbox's memory budget and import guard: by booting Python, or from the boot image when
 * one was given. Pyodide reads the image where it lies (shared with the other sandboxes): a copy per sandbox kept
 * about 15 MB more resident each (nine sandboxes in one process, measured once with a throwaway script: 1,705
 * against 1,584 MiB).
 */
async function loadGuarded(
  boot: { _makeSnapshot: true } | { _loadSnapshot: Uint8Array } | Record<string, never>,
): Promise<{ pyodide: PyodideInterface; budget: MemoryBudget }> {
  const budget = new MemoryBudget(init.memoryLimitBytes);
  budget.capHeapGrowth();
  const releaseImportGuard = replaceWasmImports(interrupt);
  const discard = (): void => {};
  // Direct writes to file descriptors 1 and 2 are dropped; print() goes through the runner's capture.
  const pyodide = await loadPyodide({ env: { HOME: '/home/sandbox' }, stdout: discard, stderr: discard, ...boot });
  releaseImportGuard();
  return { pyodide, budget };
}

/** Python's memory right after booting, before anything of ours runs in it: see boot-image.ts. */
async function makeBootImage(): Promise<Uint8Array> {
  const { pyodide } = await loadGuarded({ _makeSnapshot: true });
  return pyodide.makeMemorySnapshot();
}

async function startInterpreter(): Promise<Map<string, PyCallable>> {
  const { pyodide, budget } = await loadGuarded(
    init.bootImage ? { _loadSnapshot: new Uint8Array(init.bootImage) } : {},
  );
  // Python's start-up is where the C library first asks for random bytes, and Emscripten then loads Node's crypto
  // for them. A sandbox from the boot image skipped that start-up: without this, its first os.urandom (and
  // `import random`) came after the lock-down had closed the module loader, and the interpreter failed.
  pyodide.runPython("__import__('os').urandom(1)");
  // Before the file budget counts files: the archive is written back whole.
  eraseBridgeSources(pyodide.FS as unknown as ArchiveFs);
  pyodide.setInterruptBuffer(interrupt);
  const module = (pyodide as unknown as { _module: { HEAPU8: Uint8Array } })._module;
  budget.capFileStorage(pyodide.FS as unknown as EmscriptenFs, () => module.HEAPU8.length);

  const operations = installRunner(pyodide);
  lockDownRealm(pyodide);
  return operations;
}

function installRunner(pyodide: PyodideInterface): Map<string, PyCallable> {
  const newDict = pyodide.globals.get('dict') as PyCallable;
  const runnerNamespace = newDict() as { get(name: string): unknown };
  pyodide.runPython(RUNNER_SOURCE, { globals: runnerNamespace as never });
  const table = runnerNamespace.get('operations') as { get(name: string): PyCallable; keys(): Iterable<string> };
  const operations = new Map<string, PyCallable>();
  for (const name of table.keys()) operations.set(name, table.get(name));

  operations.get('install_host_functions')!(hostCall, sleep);
  pyodide.unregisterJsModule('js');
  pyodide.unregisterJsModule('pyodide_js');
  const fenceNamespace = newDict() as { get(name: string): PyCallable; destroy(): void };
  pyodide.runPython(FENCE_SOURCE, { globals: fenceNamespace as never });
  const installFence = fenceNamespace.get('install_fence');
  installFence(hostCall, sleep);
  installFence.destroy();
  fenceNamespace.destroy();
  return operations;
}

interface ArchiveFs {
  readdir(path: string): string[];
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array): void;
}

/** The bridge packages leave the standard library archive, so that no import can find them (see fence.ts). */
function eraseBridgeSources(fs: ArchiveFs): void {
  const archives = fs.readdir('/lib').filter((name) => /^python\d+\.zip$/.test(name));
  if (archives.length !== 1)
    throw new Error(`sandbox: expected one standard library archive in /lib, found ${archives.length}`);
  const path = `/lib/${archives[0]}`;
  const archive = fs.readFile(path);
  if (erasePackages(archive, BRIDGE_MODULES) === 0)
    throw new Error('sandbox: the standard library archive holds no bridge package to erase');
  fs.writeFile(path, archive);
}

/**
 * Takes a pending interrupt, if any. JavaScript called from Python must not leave it to Python's
 * periodic check (which comes late after a long wait) nor raise it through Pyodide's error
 * conversion (which prints it and names this file in the traceback): the Python side raises
 * KeyboardInterrupt itself when told.
 */
const takeInterrupt = (): boolean => Atomics.exchange(interrupt, 0, 0) !== 0;

/**
 * What Python's `llm_query` and `recall` call: asks the main thread and blocks until the answer
 * arrives, so the helpers look synchronous to Python. Returns `{"interrupted": true}` when the
 * operation's time runs out first.
 */
let lastCallId = 0;
function hostCall(helper: string, argsJson: string): string {
  const callId = ++lastCallId;
  send({ kind: 'host_call', callId, helper: helper as 'llm_query' | 'recall', argsJson });
  for (;;) {
    // Replies to calls abandoned by an earlier interrupt can still arrive; they are skipped.
    for (let entry = receiveMessageOnPort(init.hostReplies); entry; entry = receiveMessageOnPort(init.hostReplies)) {
      const reply = entry.message as HostReply;
      if (reply.callId === callId) return reply.replyJson;
    }
    if (takeInterrupt()) return JSON.stringify({ interrupted: true });
    Atomics.wait(hostSignal, 0, 0, HOST_POLL_MS);
    Atomics.store(hostSignal, 0, 0);
  }
}

/** Python's time.sleep, in slices so that an interrupt ends it; returns whether one did. */
const idle = new Int32Array(new SharedArrayBuffer(4));
function sleep(seconds: number): boolean {
  const end = performance.now() + seconds * 1000;
  for (let left = seconds * 1000; left > 0; left = end - performance.now()) {
    if (takeInterrupt()) return true;
    Atomics.wait(idle, 0, 0, Math.min(left, HOST_POLL_MS));
  }
  return takeInterrupt();
}

function perform(operations: Map<string, PyCallable>, { id, request }: ToWorker): [FromWorker, ArrayBuffer[]?] {
  // An interrupt aimed at the previous operation may land after it finished; it must not hit this one.
  Atomics.store(interrupt, 0, 0);
  try {
    if (request.op === 'snapshot') return snapshot(operations, id);
    const reply = JSON.parse(callOperation(operations, request) as string) as unknown;
    const failure = failureIn(reply);
    return [failure ? { kind: 'failure', id, failure } : { kind: 'result', id, value: reply }];
  } catch (error) {
    // Only a broken interpreter throws here (the runner turns Python errors into replies).
    return [
      {
        kind: 'failure',
        id,
        failure: { code: 'fatal', message: error instanceof Error ? error.message : String(error) },
      },
    ];
  }
}

function callOperation(
  operations: Map<string, PyCallable>,
  request: Exclude<OperationRequest, { op: 'snapshot' }>,
): unknown {
  const run = operations.get(request.op)!;
  // JavaScript `undefined` becomes Python `None` (`null` would not).
  switch (request.op) {
    case 'execute':
      return run(
        request.code,
        request.resultVar ?? undefined,
        request.returnResult,
        request.maxReturnChars,
        request.maxOutputChars,
      );
    case 'inspect':
      return run(request.variable ?? undefined, request.previewChars);
    case 'summary':
      return run();
    case 'set_variable':
      return run(request.name, request.json, request.previewChars);
    case 'variable_text':
      return run(request.name, request.maxChars);
    case 'restore':
      return run(request.data);
  }
}

function snapshot(operations: Map<string, PyCallable>, id: number): [FromWorker, ArrayBuffer[]] {
  const pair = operations.get('snapshot')!() as PyPair;
  try {
    const report = JSON.parse(pair.get(1) as string) as unknown;
    const failure = failureIn(report);
    if (failure) return [{ kind: 'failure', id, failure }, []];
    const bytes = pair.get(0) as { toJs(): unknown; destroy(): void };
    const data = bytes.toJs() as Uint8Array;
    bytes.destroy();
    return [{ kind: 'result', id, value: report, snapshot: data }, [data.buffer as ArrayBuffer]];
  } finally {
    pair.destroy();
  }
}

function failureIn(reply: unknown): OperationFailure | undefined {
  if (typeof reply !== 'object' || reply === null || !('__error__' in reply)) return undefined;
  const { __error__: code, message } = reply as { __error__: OperationFailure['code']; message: string };
  return { code, message };
}
