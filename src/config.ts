import { AUTH, SECRETS, secretsConfig, WORKSPACES, type SecretsConfig } from './config/settings/access.js';
import { EMBEDDING, embeddingConfig, type EmbeddingConfig } from './config/settings/embedding.js';
import { DOCUMENTS, type DocumentsConfig } from './config/settings/documents.js';
import { GRAPH, type GraphConfig } from './config/settings/graph.js';
import { LLM, llmConfig, type LlmConfig } from './config/settings/llm.js';
import { METRICS, TRACING, tracingConfig, type TracingConfig } from './config/settings/observability.js';
import { OCR, OCR_PROVIDER, ocrConfig, type OcrConfig } from './config/settings/ocr.js';
import { RECALL, recallConfig, type RecallConfig } from './config/settings/recall.js';
import { SANDBOX, type SandboxConfig } from './config/settings/sandbox.js';
import { MCP, RATE_LIMIT, SERVER } from './config/settings/server.js';
import { dataDirOf, STORAGE, storageConfig, type StorageConfig } from './config/settings/storage.js';
import { TASKS, type TasksConfig } from './config/settings/tasks.js';
import { TRANSCRIPTION, type TranscriptionConfig } from './config/settings/transcription.js';
import { readSettings, type Env, type SettingGroup } from './config/setting.js';

export { ConfigError } from './config/setting.js';
export type {
  DocumentsConfig,
  EmbeddingConfig,
  GraphConfig,
  LlmConfig,
  OcrConfig,
  RecallConfig,
  SandboxConfig,
  SecretsConfig,
  StorageConfig,
  TasksConfig,
  TracingConfig,
  TranscriptionConfig,
};
export type { SandboxSpare } from './config/settings/sandbox.js';

/**
 * Every setting of memd, from its environment variables. Each variable is declared once, in src/config/settings/
 * (name, accepted values, default, meaning); the README's tables are generated from the same declarations.
 */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  importBodyLimitBytes: number;
  jsonMaxDepth: number;
  requestTimeoutSeconds: number;
  shutdownTimeoutMs: number;
  storage: StorageConfig;
  auth: { adminKey: string | undefined };
  workspaces: { autoCreate: boolean };
  embedding: EmbeddingConfig;
  llm: LlmConfig;
  tasks: TasksConfig;
  recall: RecallConfig;
  sandbox: SandboxConfig;
  graph: GraphConfig;
  documents: DocumentsConfig;
  ocr: OcrConfig;
  transcription: TranscriptionConfig;
  rateLimit: { perMinute: number };
  secrets: SecretsConfig;
  mcp: { enabled: boolean };
  metrics: { enabled: boolean; key: string | undefined };
  /** null when tracing is off (the default). */
  tracing: TracingConfig | null;
}

export function loadConfig(env: Env = process.env): Config {
  const storage = storageConfig(env);
  const llm = llmConfig(env);
  const recall = recallConfig(env, llm);
  const embeddingProvider = EMBEDDING.provider.read(env);
  return {
    ...readSettings(SERVER, env),
    dataDir: dataDirOf(env),
    storage,
    auth: readSettings(AUTH, env),
    workspaces: readSettings(WORKSPACES, env),
    embedding: embeddingConfig(env, embeddingProvider, EMBEDDING.model.read(env)),
    llm,
    tasks: readSettings(TASKS, env),
    recall,
    sandbox: readSettings(SANDBOX, env),
    graph: readSettings(GRAPH, env),
    documents: readSettings(DOCUMENTS, env),
    ocr: ocrConfig(env, OCR_PROVIDER.read(env)),
    transcription: readSettings(TRANSCRIPTION, env),
    rateLimit: readSettings(RATE_LIMIT, env),
    secrets: secretsConfig(env),
    mcp: readSettings(MCP, env),
    metrics: readSettings(METRICS, env),
    tracing: tracingConfig(env),
  };
}

/** memd's settings as the README lists them (`npm run docs:settings`), group by group. */
export const SETTING_GROUPS: readonly SettingGroup[] = [
  { title: 'Server', settings: [...Object.values(SERVER), ...Object.values(RATE_LIMIT), ...Object.values(MCP)] },
  { title: 'Storage', settings: Object.values(STORAGE) },
  { title: 'Access', settings: [...Object.values(AUTH), ...Object.values(WORKSPACES), ...Object.values(SECRETS)] },
  { title: 'Embedding', settings: Object.values(EMBEDDING) },
  { title: 'Language model', settings: Object.values(LLM) },
  { title: 'Recall', settings: Object.values(RECALL) },
  { title: 'Background tasks', settings: Object.values(TASKS) },
  { title: 'Context sandboxes', settings: Object.values(SANDBOX) },
  { title: 'Graph and knowledgebase', settings: Object.values(GRAPH) },
  { title: 'Documents', settings: Object.values(DOCUMENTS) },
  { title: 'OCR', settings: [OCR_PROVIDER, ...Object.values(OCR)] },
  { title: 'Transcription', settings: Object.values(TRANSCRIPTION) },
  { title: 'Metrics and tracing', settings: [...Object.values(METRICS), ...Object.values(TRACING)] },
];
