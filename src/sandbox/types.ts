/** The sandbox engine's public shapes. Field names follow the HTTP API, so routes can pass them through. */

export interface ExecuteRequest {
  code: string;
  /** Return this variable's value instead of the value of the last expression. */
  resultVar?: string | undefined;
  /** Default true. */
  returnResult?: boolean | undefined;
  /** Default 10,000. */
  maxReturnChars?: number | undefined;
}

export interface ExecuteResult {
  /** stdout and stderr, interleaved as written, capped at the configured size. */
  output: string;
  /** Strings as they are, other values as JSON when possible, else repr(); null when there is none. */
  result: string | null;
  /** The Python exception with its traceback, or a time/memory limit report; null on success. */
  error: string | null;
  /** User variables added or rebound by this call. */
  variables_changed: string[];
}

export interface VariableDetail {
  variable: string;
  type: string;
  preview: string;
  size_bytes: number;
}

export interface VariablesOverview {
  variable_count: number;
  /** Name to a short description such as `list, 3 items`. */
  variables: Record<string, string>;
  total_size_bytes: number;
}

export interface BoundVariable {
  variable: string;
  type: string;
  preview: string;
}

export interface SandboxMetadata {
  created_at: string;
  exec_count: number;
  total_operations: number;
  last_exec_at: string | null;
}

export interface SandboxStatus {
  exists: boolean;
  variable_count: number;
  variables: string[];
  total_size_bytes: number;
  memory_limit_bytes: number;
  metadata: SandboxMetadata | null;
}

export interface SkippedVariable {
  name: string;
  reason: string;
}

export interface CheckpointReport {
  saved: string[];
  skipped: SkippedVariable[];
}

export interface CheckpointMeta extends SandboxMetadata, CheckpointReport {
  saved_at: string;
}

/** A session's saved state; `revision` is a token written with it, new at every save. */
export interface StoredCheckpoint {
  data: Uint8Array;
  meta: CheckpointMeta;
  revision: string;
}

/**
 * Where checkpoints live (the database, in the service); one per session, replaced on each save. Every node of a
 * deployment reads and writes the same store.
 */
export interface CheckpointStore {
  /**
   * Stores the state as `revision` if the stored checkpoint is still `replaces` (null: none stored); false, and
   * nothing stored, when another node has moved the session on (or the session is gone).
   */
  save(
    sessionId: string,
    data: Uint8Array,
    meta: CheckpointMeta,
    revision: string,
    replaces: string | null,
  ): Promise<boolean>;
  load(sessionId: string): Promise<StoredCheckpoint | null>;
  /** The revision of the stored checkpoint without its data (a cheap read); null when there is none. */
  revision(sessionId: string): Promise<string | null>;
  delete(sessionId: string): Promise<void>;
}

/** What Python's `llm_query` and `recall` reach, already scoped to one session (and its workspace). */
export interface SandboxHost {
  llmQuery(prompt: string): Promise<string>;
  /** Memories as JSON objects (they reach Python as dicts). */
  recall(query: string, limit: number): Promise<object[]>;
}

export interface SandboxLogger {
  warn(details: Record<string, unknown>, message: string): void;
}
