import { integer, oneOf, type SettingValues } from '../setting.js';
import { STORAGE } from './storage.js';

/** The Python sandboxes of the context environment (`/v1/context/*`, one per session). */
export const SANDBOX = {
  maxLive: integer({
    name: 'MEMD_SANDBOX_MAX_LIVE',
    default: 8,
    min: 1,
    max: 1024,
    meaning:
      'sandboxes alive at once on a node; beyond that the least recently used is checkpointed to the database and stopped, and restored on its next call',
  }),
  executionTimeoutMs: integer({
    name: 'MEMD_SANDBOX_TIMEOUT_MS',
    default: 30_000,
    min: 100,
    max: 3_600_000,
    meaning: 'wall-clock limit of one call (the code is interrupted, the sandbox stays)',
  }),
  memoryLimitBytes: integer({
    name: 'MEMD_SANDBOX_MEMORY_BYTES',
    default: 256 * 1024 ** 2,
    min: 16 * 1024 ** 2,
    max: 16 * 1024 ** 3,
    meaning: 'memory of one sandbox (heap and in-memory files)',
  }),
  idleEvictMs: integer({
    name: 'MEMD_SANDBOX_IDLE_MS',
    default: 600_000,
    min: 1_000,
    max: 86_400_000,
    meaning: 'a sandbox idle this long is checkpointed to the database and stopped, and restored on its next call',
  }),
  maxOutputChars: integer({
    name: 'MEMD_SANDBOX_MAX_OUTPUT_CHARS',
    default: 50_000,
    min: 100,
    max: 10_000_000,
    meaning: 'output of one call captured',
  }),
  spare: oneOf({
    name: 'MEMD_SANDBOX_SPARE',
    values: ['start', 'first-use', 'off'] as const,
    default: 'first-use',
    meaning:
      "an interpreter loaded ahead of need (about 100 MiB) so that a new session's first execute answers in milliseconds instead of ~3 s: loaded after the first use of the context environment (a server that never runs Python pays nothing; the first session after a start waits); at `start`; or `off`",
  }),
  checkpoint: oneOf({
    name: 'MEMD_SANDBOX_CHECKPOINT',
    values: ['sync', 'delayed'] as const,
    default: {
      from: (env) => (STORAGE.kind.read(env) === 'postgres' ? 'sync' : 'delayed'),
      shown: '`delayed` on SQLite, `sync` on Postgres',
    },
    meaning:
      "when a call that changed variables is checkpointed: `sync` saves before the call answers, so the session's next call continues from it on any node (a node whose live sandbox another node has moved on from takes the stored state); `delayed` saves `MEMD_SANDBOX_CHECKPOINT_DELAY_MS` later, off the response path",
  }),
  checkpointDelayMs: integer({
    name: 'MEMD_SANDBOX_CHECKPOINT_DELAY_MS',
    default: 5_000,
    min: 0,
    max: 3_600_000,
    meaning:
      'with `delayed`: variables changed by a call are checkpointed this long after it, off the response path, so a crash loses at most that much (0: only on `POST /v1/context/checkpoint`, eviction and shutdown)',
  }),
};

export type SandboxConfig = SettingValues<typeof SANDBOX>;
/** When the spare sandbox is started (MEMD_SANDBOX_SPARE). */
export type SandboxSpare = SandboxConfig['spare'];
