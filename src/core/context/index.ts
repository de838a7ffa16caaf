export { ContextService, extractCode, parseDetailLevel, RLM_MEMORIES_VARIABLE } from './service.js';
export type { ContextServiceOptions, QueryRequest, QueryResult, RlmAction, RlmDetailLevel, RlmRequest, RlmResult, RlmTraceEntry } from './service.js';
export { sandboxHost } from './host.js';
