export { SandboxManager, type SandboxManagerOptions } from './manager.js';
export { InMemoryCheckpointStore } from './memory-checkpoint-store.js';
export type * from './types.js';
