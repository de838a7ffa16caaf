import { EMBEDDING, EMBEDDING_PROVIDERS, embeddingConfig, type EmbeddingConfig } from '../config/settings/embedding.js';
import { OCR, ocrConfig, type OcrConfig } from '../config/settings/ocr.js';
import { SERVER } from '../config/settings/server.js';
import {
  baseUrl,
  ConfigError,
  flag,
  integer,
  list,
  listItems,
  oneOf,
  setting,
  text,
  type Env,
  type Setting,
} from '../config/setting.js';

/** A language-model profile of the peer: a request naming it, one of its aliases or its model goes to its upstream. */
export interface LlmProfile {
  name: string;
  /** OpenAI-compatible base URL, ending before /chat/completions (e.g. http://127.0.0.1:8000/v1). */
  baseUrl: string;
  /** The model id the upstream knows. */
  model: string;
  apiKey: string | undefined;
  aliases: string[];
}

/** The embedding peer (`npm run peer`): a separate, stateless process. */
export interface PeerConfig {
  host: string;
  port: number;
  logLevel: string;
  bodyLimitBytes: number;
  /** Bearer key every /v1 request must carry; unset, the peer is open (it binds to localhost by default). */
  apiKey: string | undefined;
  /** Requests one provider serves at once; more wait their turn (and count as queued in /health/load). */
  concurrency: number;
  /** The embedding providers served; the first answers requests that name no model. */
  embedding: EmbeddingConfig[];
  /** `POST /v1/ocr`: `local` (tesseract.js in worker threads) or `off` (501). */
  ocr: OcrConfig;
  llm: { enabled: boolean; profiles: LlmProfile[]; defaultProfile: string | undefined; timeoutMs: number };
}

/** One entry of MEMD_PEER_EMBEDDING_PROVIDERS: `local`, `hash`, `transformers:<model>`, `openai:<model>`. */
interface ProviderEntry {
  provider: EmbeddingConfig['provider'];
  model: string | undefined;
}

function providerEntries(raw: string, name: string): ProviderEntry[] {
  const entries = listItems(raw);
  if (entries.length === 0) throw new ConfigError(`${name} names no provider`);
  return entries.map((entry) => {
    const [given = '', ...model] = entry.split(':');
    const provider = EMBEDDING_PROVIDERS.find((p) => p === given.toLowerCase());
    if (!provider) throw new ConfigError(`${name}: '${given}' is not one of ${EMBEDDING_PROVIDERS.join(', ')}`);
    return { provider, model: model.join(':') || undefined };
  });
}

export const PEER = {
  host: text({ name: 'MEMD_PEER_HOST', default: '127.0.0.1', accepts: 'address', meaning: 'listen address' }),
  port: integer({ name: 'MEMD_PEER_PORT', default: 61051, min: 0, max: 65535, meaning: 'listen port' }),
  bodyLimitBytes: integer({
    name: 'MEMD_PEER_BODY_LIMIT_BYTES',
    default: 32 * 1024 ** 2,
    min: 1024,
    max: 1024 ** 3,
    meaning: 'largest request body (413 beyond)',
  }),
  apiKey: text({
    name: 'MEMD_PEER_API_KEY',
    accepts: 'secret',
    meaning:
      'set: every `/v1` request needs `Authorization: Bearer <key>` (give memd the same value, e.g. as `MEMD_EMBEDDING_API_KEY`)',
  }),
  concurrency: integer({
    name: 'MEMD_PEER_CONCURRENCY',
    default: 4,
    min: 1,
    max: 1024,
    meaning:
      'requests one provider (or profile) serves at once; more wait their turn and count as queued in `/health/load`',
  }),
  embeddingProviders: setting({
    name: 'MEMD_PEER_EMBEDDING_PROVIDERS',
    default: { from: () => providerEntries('local', 'MEMD_PEER_EMBEDDING_PROVIDERS'), shown: '`local`' },
    accepts: '`local`, `hash`, `transformers:<model>`, `openai:<model>`, comma-separated',
    meaning:
      'the embedding providers served, the first answering requests that name no model (a model left out is `MEMD_EMBEDDING_MODEL`)',
    parse: providerEntries,
  }),
  ocr: oneOf({
    name: 'MEMD_PEER_OCR',
    values: ['local', 'off'] as const,
    default: 'local',
    meaning: '`POST /v1/ocr`: `local` (tesseract.js in worker threads) or `off` (501)',
  }),
  llmEnabled: flag({
    name: 'MEMD_PEER_LLM_ENABLED',
    default: false,
    meaning:
      'language-model hosting: `/v1/chat/completions`, `/v1/completions`, `/v1/audio/transcriptions`, `/v1/models` (off: 501)',
  }),
  llmProfiles: list({
    name: 'MEMD_PEER_LLM_PROFILES',
    accepts: 'names, comma-separated',
    meaning: 'with hosting on, required: the profiles, each configured by the `MEMD_PEER_LLM_<NAME>_*` below',
  }),
  llmDefaultProfile: text({
    name: 'MEMD_PEER_LLM_DEFAULT_PROFILE',
    shownDefault: 'the first profile',
    accepts: 'a profile',
    meaning: 'the profile of a request that names no `model`',
  }),
  llmTimeoutMs: integer({
    name: 'MEMD_PEER_LLM_TIMEOUT_MS',
    default: 120_000,
    min: 100,
    max: 3_600_000,
    meaning: 'the wait for the headers of the answer of an upstream',
  }),
};

/** The settings of one language-model profile; `key` is its name in capitals, `-` and others as `_`. */
export const profileSettings = (key: string) => ({
  baseUrl: baseUrl({
    name: `MEMD_PEER_LLM_${key}_BASE_URL`,
    meaning: 'required: the OpenAI-compatible upstream, ending before `/chat/completions`',
  }),
  model: text({
    name: `MEMD_PEER_LLM_${key}_MODEL`,
    accepts: 'model id',
    meaning: 'required: the model id the upstream knows',
  }),
  apiKey: text({
    name: `MEMD_PEER_LLM_${key}_API_KEY`,
    accepts: 'secret',
    meaning: 'sent to the upstream as `Authorization: Bearer`',
  }),
  aliases: list({
    name: `MEMD_PEER_LLM_${key}_ALIASES`,
    accepts: 'names, comma-separated',
    meaning: 'other names a request may use for the profile',
  }),
});

/** Profiles from MEMD_PEER_LLM_PROFILES, each configured by MEMD_PEER_LLM_<NAME>_{BASE_URL,MODEL,API_KEY,ALIASES}. */
function llmProfiles(env: Env): LlmProfile[] {
  const profiles = (PEER.llmProfiles.read(env) ?? []).map((name) => {
    const key = name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
    const settings = profileSettings(key);
    const baseUrl = settings.baseUrl.read(env);
    const model = settings.model.read(env);
    if (!baseUrl || !model)
      throw new ConfigError(
        `language-model profile '${name}' needs ${settings.baseUrl.name} and ${settings.model.name}`,
      );
    return { name, baseUrl, model, apiKey: settings.apiKey.read(env), aliases: settings.aliases.read(env) ?? [] };
  });
  if (profiles.length === 0)
    throw new ConfigError('MEMD_PEER_LLM_ENABLED=true needs MEMD_PEER_LLM_PROFILES (comma-separated profile names)');
  return profiles;
}

/** The peer's settings, from MEMD_PEER_* and those of memd it shares (MEMD_LOG_LEVEL, MEMD_EMBEDDING_*, MEMD_OCR_*). */
export function loadPeerConfig(env: Env = process.env): PeerConfig {
  const enabled = PEER.llmEnabled.read(env);
  const profiles = enabled ? llmProfiles(env) : [];
  const defaultProfile = PEER.llmDefaultProfile.read(env) ?? profiles[0]?.name;
  if (enabled && !profiles.some((p) => p.name === defaultProfile)) {
    throw new ConfigError(`MEMD_PEER_LLM_DEFAULT_PROFILE '${defaultProfile}' is not in MEMD_PEER_LLM_PROFILES`);
  }
  return {
    host: PEER.host.read(env),
    port: PEER.port.read(env),
    logLevel: SERVER.logLevel.read(env),
    bodyLimitBytes: PEER.bodyLimitBytes.read(env),
    apiKey: PEER.apiKey.read(env),
    concurrency: PEER.concurrency.read(env),
    // A provider that takes a model and names none gets MEMD_EMBEDDING_MODEL.
    embedding: PEER.embeddingProviders
      .read(env)
      .map(({ provider, model }) =>
        embeddingConfig(
          env,
          provider,
          model ?? (provider === 'transformers' || provider === 'openai' ? EMBEDDING.model.read(env) : undefined),
        ),
      ),
    ocr: ocrConfig(env, PEER.ocr.read(env)),
    llm: {
      enabled,
      profiles,
      defaultProfile: enabled ? defaultProfile : undefined,
      timeoutMs: PEER.llmTimeoutMs.read(env),
    },
  };
}

/** The peer's own settings as the README lists them, a profile's under the name `<NAME>`. */
export const PEER_SETTINGS: readonly Setting<unknown>[] = [
  ...Object.values(PEER),
  ...Object.values(profileSettings('<NAME>')),
];

/** The settings of memd the peer uses as well (it is the OCR peer, so it has no use for memd's address of one). */
export const PEER_SHARED_SETTINGS: readonly Setting<unknown>[] = [
  SERVER.logLevel,
  ...Object.values(EMBEDDING).filter((one) => one !== EMBEDDING.provider),
  OCR.timeoutMs,
  OCR.maxPixels,
  OCR.workers,
];
