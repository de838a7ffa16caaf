import { integer, type SettingValues } from '../setting.js';

/** The durable background task queue of each node. */
export const TASKS = {
  concurrency: integer({
    name: 'MEMD_TASK_CONCURRENCY',
    default: 2,
    min: 0,
    max: 64,
    meaning:
      'background tasks one node runs at once; 0: this node runs none (an API-only node beside worker nodes on PostgreSQL; on the embedded default nothing then runs the queue, which keeps every task until a node with 1 or more starts)',
  }),
  batchSize: integer({
    name: 'MEMD_TASK_BATCH_SIZE',
    default: 32,
    min: 1,
    max: 1_000,
    meaning:
      "enrichment tasks run together as one batch (one read, one embedding call, one commit for all) when no client has called for the foreground wait, or when calls kept coming for all of it; in the gaps between a client's calls they run one at a time, so that its next call waits for one task only: larger batches drain an idle server's backlog faster",
  }),
  foregroundWaitMs: integer({
    name: 'MEMD_TASK_FOREGROUND_WAIT_MS',
    default: 1_000,
    min: 0,
    max: 60_000,
    meaning:
      'how long background work waits for a gap between client requests before it starts anyway (then as a batch); a gap within this long of a call gets one task: shorter lets enrichment keep closer pace with sustained writes, at some cost to their latency; a running task also waits, up to 50 ms at each of its steps, while a request is in flight, as does each step of the keyword index merge on SQLite; 0 never waits, and always runs batches',
  }),
  pollIntervalMs: integer({
    name: 'MEMD_TASK_POLL_MS',
    default: 500,
    min: 10,
    max: 60_000,
    meaning: 'how often an idle node looks for due tasks',
  }),
  leaseMs: integer({
    name: 'MEMD_TASK_LEASE_MS',
    default: 60_000,
    min: 1_000,
    max: 3_600_000,
    meaning: 'a running task renews its lease; the tasks of a worker that died return to the queue after the lease',
  }),
  maxAttempts: integer({
    name: 'MEMD_TASK_MAX_ATTEMPTS',
    default: 5,
    min: 1,
    max: 100,
    meaning: 'attempts of a failing task before it stays `failed` (the database being unavailable does not count)',
  }),
};

export type TasksConfig = SettingValues<typeof TASKS>;
