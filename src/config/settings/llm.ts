import { ConfigError, integer, oneOf, text, readSettings, type Env, type SettingValues } from '../setting.js';

export const LLM = {
  provider: oneOf({
    name: 'MEMD_LLM_PROVIDER',
    values: ['none', 'openai', 'anthropic', 'google'] as const,
    default: 'none',
    meaning:
      'the language model memd calls where one helps (extraction, enrichment, contradictions, reflection, the knowledgebase, the `llm` reranker): `openai` (any OpenAI-compatible endpoint, the embedding peer too), `anthropic`, `google`; `none`: no model',
  }),
  model: text({ name: 'MEMD_LLM_MODEL', accepts: 'model id', meaning: 'with a provider, required: the model' }),
  baseUrl: text({
    name: 'MEMD_LLM_BASE_URL',
    accepts: 'URL',
    meaning: 'with `openai`, required: the base URL (e.g. `https://api.openai.com/v1`)',
  }),
  apiKey: text({
    name: 'MEMD_LLM_API_KEY',
    accepts: 'secret',
    meaning: 'API key of the provider (required by `anthropic` and `google`)',
  }),
  timeoutMs: integer({
    name: 'MEMD_LLM_TIMEOUT_MS',
    default: 60_000,
    min: 100,
    max: 600_000,
    meaning: 'deadline of one model call',
  }),
  maxRetries: integer({
    name: 'MEMD_LLM_MAX_RETRIES',
    default: 2,
    min: 0,
    max: 10,
    meaning: 'retries of a failed model call',
  }),
};

export type LlmConfig = SettingValues<typeof LLM>;

/** The language model; a provider needs a model, and `openai` its base URL. */
export function llmConfig(env: Env): LlmConfig {
  const llm = readSettings(LLM, env);
  if (llm.provider !== 'none' && !llm.model)
    throw new ConfigError(`MEMD_LLM_PROVIDER=${llm.provider} needs MEMD_LLM_MODEL`);
  if (llm.provider === 'openai' && !llm.baseUrl)
    throw new ConfigError('MEMD_LLM_PROVIDER=openai needs MEMD_LLM_BASE_URL (e.g. https://api.openai.com/v1)');
  return llm;
}
