import { AppError } from '../../errors.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { SandboxHost } from '../../sandbox/types.js';

/**
 * The host behind Python's `llm_query` and `recall` for one session: `recall` must already be
 * bound to that session's workspace; the model is the service's.
 */
export function sandboxHost(llm: LlmProvider | undefined, recall: SandboxHost['recall']): SandboxHost {
  return {
    async llmQuery(prompt) {
      if (!llm) throw new AppError('provider_unavailable', 'no language model is configured (set MEMD_LLM_PROVIDER)');
      return (await llm.complete({ messages: [{ role: 'user', content: prompt }] })).text;
    },
    recall,
  };
}
