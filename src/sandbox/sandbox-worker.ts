import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { AppError } from '../errors.js';
import { siblingModule, workerEntry } from '../worker-entry.js';
import type { FromWorker, HostHelper, HostReply, OperationRequest, ToWorker, WorkerInit } from './protocol.js';
import type { SandboxHost } from './types.js';

export interface WorkerLimits {
  memoryLimitBytes: number;
  /** How long an interrupted operation may take to stop before the worker is terminated. */
  interruptGraceMs: number;
  startupTimeoutMs: number;
}

/** The interpreter is gone (could not be interrupted, crashed, or hit a fatal error); its state with it. */
export class SandboxLostError extends Error {
  override name = 'SandboxLostError';
  constructor(
    readonly reason: 'timeout' | 'crashed',
    message: string,
  ) {
    super(message);
  }
}

export interface OperationOutcome {
  value: unknown;
  snapshot: Uint8Array | undefined;
  /** The operation overran its time limit and was stopped by a KeyboardInterrupt. */
  interrupted: boolean;
}

interface Pending {
  resolve(outcome: OperationOutcome): void;
  reject(error: Error): void;
  interrupted: boolean;
}

const SIGINT = 2;
/** The worker's JavaScript heap; Python's memory is the WebAssembly heap, bounded by MemoryBudget. */
const JS_HEAP_LIMIT_MB = 128;
const workerScript = workerEntry(siblingModule(import.meta.url, 'worker'));

/** A worker thread running worker.ts, with its own interrupt buffer and host reply channel. */
export function startThread(
  limits: WorkerLimits,
  role: Pick<WorkerInit, 'purpose' | 'bootImage'>,
): { worker: Worker; init: WorkerInit; hostReplies: MessagePort } {
  const { port1, port2 } = new MessageChannel();
  const init: WorkerInit = {
    memoryLimitBytes: limits.memoryLimitBytes,
    interrupt: new SharedArrayBuffer(4),
    hostSignal: new SharedArrayBuffer(4),
    ...role,
  };
  const worker = new Worker(workerScript.filename, {
    workerData: { ...init, hostReplies: port2 },
    transferList: [port2],
    env: {},
    argv: [],
    execArgv: workerScript.execArgv,
    resourceLimits: { maxOldGenerationSizeMb: JS_HEAP_LIMIT_MB },
  });
  return { worker, init, hostReplies: port1 };
}

/** The main thread's handle on one sandbox worker: requests with time limits, and host calls. */
export class SandboxWorker {
  private readonly pending = new Map<number, Pending>();
  private lastId = 0;
  private host: SandboxHost | undefined;
  private exitReason: string | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly limits: WorkerLimits,
    private readonly interrupt: Int32Array,
    private readonly hostSignal: Int32Array,
    private readonly hostReplies: MessagePort,
    /** How the interpreter came to be: booted, or copied from the boot image (boot-image.ts). */
    readonly startedFrom: 'python' | 'boot_image',
  ) {}

  /** A sandbox started from the boot image when given (boot-image.ts), else by booting Python. */
  static start(limits: WorkerLimits, bootImage?: SharedArrayBuffer): Promise<SandboxWorker> {
    const { worker, init, hostReplies } = startThread(limits, { purpose: 'sandbox', bootImage });
    const handle = new SandboxWorker(
      worker,
      limits,
      new Int32Array(init.interrupt),
      new Int32Array(init.hostSignal),
      hostReplies,
      bootImage ? 'boot_image' : 'python',
    );
    return handle.untilReady();
  }

  get alive(): boolean {
    return this.exitReason === undefined;
  }

  /** Host calls from Python go to this session's host from now on. */
  adopt(host: SandboxHost): void {
    this.host = host;
  }

  run(request: OperationRequest, timeoutMs: number): Promise<OperationOutcome> {
    if (!this.alive) return Promise.reject(new SandboxLostError('crashed', `the sandbox is gone: ${this.exitReason}`));
    const id = ++this.lastId;
    return new Promise<OperationOutcome>((resolve, reject) => {
      let graceTimer: NodeJS.Timeout | undefined;
      const deadline = setTimeout(() => {
        entry.interrupted = true;
        Atomics.store(this.interrupt, 0, SIGINT);
        graceTimer = setTimeout(() => {
          void this.terminate(
            `operation could not be interrupted within ${timeoutMs + this.limits.interruptGraceMs} ms`,
          );
        }, this.limits.interruptGraceMs);
      }, timeoutMs);
      const settle = () => {
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        this.pending.delete(id);
      };
      const entry: Pending = {
        interrupted: false,
        resolve: (outcome) => {
          settle();
          resolve(outcome);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      this.pending.set(id, entry);
      const message: ToWorker = { kind: 'operation', id, request };
      this.worker.postMessage(message);
    });
  }

  async terminate(reason = 'terminated'): Promise<void> {
    this.markGone(reason, 'crashed');
    this.hostReplies.close();
    await this.worker.terminate();
  }

  private untilReady(): Promise<SandboxWorker> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        void this.terminate('startup timed out');
        reject(new Error(`sandbox worker did not start within ${this.limits.startupTimeoutMs} ms`));
      }, this.limits.startupTimeoutMs);
      this.worker.on('message', (message: FromWorker) => {
        if (message.kind === 'ready') {
          clearTimeout(timer);
          resolve(this);
        } else if (message.kind === 'startup_failed') {
          clearTimeout(timer);
          void this.terminate('startup failed');
          reject(new Error(`sandbox worker failed to start: ${message.message}`));
        } else if (message.kind !== 'boot_image') {
          this.receive(message);
        }
      });
      this.worker.on('error', (error) => this.markGone(error.message, 'crashed'));
      this.worker.on('exit', (code) => {
        clearTimeout(timer);
        this.markGone(`worker exited with code ${code}`, 'crashed');
        reject(new Error(`sandbox worker exited during start-up: ${this.exitReason}`));
      });
    });
  }

  private receive(message: Exclude<FromWorker, { kind: 'ready' | 'startup_failed' | 'boot_image' }>): void {
    if (message.kind === 'host_call') {
      void this.answerHostCall(message.callId, message.helper, message.argsJson);
      return;
    }
    const entry = this.pending.get(message.id);
    if (!entry) return;
    if (message.kind === 'result') {
      entry.resolve({ value: message.value, snapshot: message.snapshot, interrupted: entry.interrupted });
      return;
    }
    const { code, message: text } = message.failure;
    if (code === 'fatal') {
      entry.reject(new SandboxLostError('crashed', `the Python interpreter failed: ${text}`));
      void this.terminate(text);
    } else if (entry.interrupted) {
      entry.reject(new AppError('bad_request', `the operation overran its time limit and was interrupted: ${text}`));
    } else {
      entry.reject(
        new AppError(
          code === 'not_found' ? 'not_found' : code === 'invalid' ? 'validation_error' : 'internal_error',
          text,
        ),
      );
    }
  }

  private async answerHostCall(callId: number, helper: HostHelper, argsJson: string): Promise<void> {
    let replyJson: string;
    try {
      const args = JSON.parse(argsJson) as { prompt?: string; query?: string; limit?: number };
      if (!this.host) throw new Error('this sandbox has no host');
      let value: unknown;
      if (helper === 'llm_query') value = await this.host.llmQuery(String(args.prompt));
      else if (helper === 'recall') value = await this.host.recall(String(args.query), Number(args.limit));
      else throw new Error(`unknown host helper '${String(helper)}'`);
      replyJson = JSON.stringify({ value });
    } catch (error) {
      replyJson = JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
    }
    if (!this.alive) return;
    const reply: HostReply = { callId, replyJson };
    this.hostReplies.postMessage(reply);
    Atomics.store(this.hostSignal, 0, 1);
    Atomics.notify(this.hostSignal, 0);
  }

  private markGone(reason: string, kind: SandboxLostError['reason']): void {
    if (this.exitReason !== undefined) return;
    this.exitReason = reason;
    for (const entry of [...this.pending.values()]) {
      entry.reject(new SandboxLostError(entry.interrupted ? 'timeout' : kind, reason));
    }
  }
}
