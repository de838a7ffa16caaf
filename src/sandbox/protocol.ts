/** Messages between a sandbox worker and the main thread. Both sides import only types from here. */

export interface WorkerInit {
  memoryLimitBytes: number;
  /** Int32Array[1]: the main thread writes 2 (SIGINT) to interrupt running Python. */
  interrupt: SharedArrayBuffer;
  /** Int32Array[1]: the main thread writes 1 and notifies when a host reply waits on `hostReplies`. */
  hostSignal: SharedArrayBuffer;
  /**
   * `boot_image`: load Python, send its memory as a boot image (`boot-image.ts`) and do nothing else. `sandbox`: one
   * sandbox, started from `bootImage` when given, else by booting Python.
   */
  purpose: 'sandbox' | 'boot_image';
  bootImage?: SharedArrayBuffer;
}

export type OperationRequest =
  | {
      op: 'execute';
      code: string;
      resultVar: string | null;
      returnResult: boolean;
      maxReturnChars: number;
      maxOutputChars: number;
    }
  | { op: 'inspect'; variable: string | null; previewChars: number }
  | { op: 'summary' }
  | { op: 'set_variable'; name: string; json: string; previewChars: number }
  | { op: 'variable_text'; name: string; maxChars: number }
  | { op: 'snapshot' }
  | { op: 'restore'; data: Uint8Array };

export type OperationName = OperationRequest['op'];

/** Why an operation failed inside the worker: a caller's mistake, or a broken interpreter. */
export interface OperationFailure {
  code: 'not_found' | 'invalid' | 'failed' | 'fatal';
  message: string;
}

export type ToWorker = { kind: 'operation'; id: number; request: OperationRequest };

export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'startup_failed'; message: string }
  | { kind: 'boot_image'; data: Uint8Array }
  | { kind: 'result'; id: number; value: unknown; snapshot?: Uint8Array }
  | { kind: 'failure'; id: number; failure: OperationFailure }
  | { kind: 'host_call'; callId: number; helper: HostHelper; argsJson: string };

export type HostHelper = 'llm_query' | 'recall';

/** Sent on the dedicated reply port; the worker reads it synchronously while Python waits. */
export interface HostReply {
  callId: number;
  /** JSON: `{"value": ...}` or `{"error": "..."}`. */
  replyJson: string;
}
