import { requireLlm } from '../../providers/llm/index.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { SandboxHost } from '../../sandbox/types.js';
import type { MemorySearch } from './memory-search.js';

export interface SandboxHostDeps {
  llm: LlmProvider | null;
  search: MemorySearch;
  /** The session's workspace; fails (not found, expired) once the session has ended. */
  workspaceOf(sessionId: string): Promise<string>;
}

/**
 * The host behind Python's `llm_query` and `recall` for one session. The workspace is looked up on
 * every call, so a sandbox can never search another workspace, nor any once its session has ended.
 */
export function sandboxHost(sessionId: string, deps: SandboxHostDeps): SandboxHost {
  return {
    async llmQuery(prompt) {
      const llm = requireLlm(deps.llm, 'llm_query()');
      return (await llm.complete({ messages: [{ role: 'user', content: prompt }] })).text;
    },
    async recall(query, limit) {
      const found = await deps.search(await deps.workspaceOf(sessionId), { query, limit });
      return found.memories;
    },
  };
}
