export { ContextService, extractCode, parseDetailLevel, RLM_MEMORIES_VARIABLE } from './service.js';
export type {
  ContextServiceOptions,
  LoadRequest,
  LoadResult,
  QueryRequest,
  QueryResult,
  RlmAction,
  RlmDetailLevel,
  RlmRequest,
  RlmResult,
  RlmTraceEntry,
  SandboxScope,
} from './service.js';
export { DatabaseCheckpointStore } from './checkpoint-store.js';
export { sandboxHost, type SandboxHostDeps } from './host.js';
export {
  recallMemorySearch,
  type FoundMemory,
  type MemorySearch,
  type MemorySearchRequest,
  type MemorySearchResult,
} from './memory-search.js';
