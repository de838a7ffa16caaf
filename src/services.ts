import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { ApiKeyService } from './core/auth/api-keys.js';
import { systemClock, type Clock } from './core/clock.js';
import { CoreEvents } from './core/events.js';
import { GraphAnalyzer } from './core/graph/analysis/analyzer.js';
import { AssociationService } from './core/graph/associations.js';
import { GraphService } from './core/graph/service.js';
import { KNOWLEDGEBASE_TASK, KnowledgebaseService } from './core/knowledgebase/service.js';
import { MemoryEnricher } from './core/memories/enrich.js';
import { ENRICH_TASK, MemoryService } from './core/memories/service.js';
import { SessionService } from './core/sessions/service.js';
import { WorkspaceService } from './core/workspaces/service.js';
import { createEmbeddingProvider, withEmbeddingCache, type EmbeddingProvider } from './providers/embedding/index.js';
import { createLlmProvider } from './providers/llm/index.js';
import type { LlmProvider } from './providers/llm/types.js';
import { checkEmbedderIdentity } from './core/embedder-identity.js';
import { openStorage } from './storage/index.js';
import type { SqlStorage } from './storage/sql/storage.js';
import { TaskRunner } from './tasks/runner.js';

/** Query embeddings repeat (the same question asked twice); caching them keeps recall off the model. */
const QUERY_EMBEDDING_CACHE = 2_048;

export interface Services {
  config: Config;
  clock: Clock;
  events: CoreEvents;
  storage: SqlStorage;
  embedder: EmbeddingProvider;
  /** The embedder behind an LRU cache, for short repeated texts (queries). */
  queryEmbedder: EmbeddingProvider;
  llm: LlmProvider | null;
  workspaces: WorkspaceService;
  memories: MemoryService;
  enricher: MemoryEnricher;
  associations: AssociationService;
  graph: GraphService;
  knowledgebase: KnowledgebaseService;
  sessions: SessionService;
  apiKeys: ApiKeyService;
  tasks: TaskRunner;
  /** True once search indexes are warm and background work runs. */
  isReady(): boolean;
  /** Warms search indexes and starts the task runner; resolves when ready. */
  start(): Promise<void>;
  /** Stops background work and releases the database and the model workers. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  /** Replaces the configured embedder (tests inject a deterministic one). */
  embedder?: EmbeddingProvider;
  llm?: LlmProvider | null;
}

/** Builds every service from the configuration. Fails with a clear message if the data cannot be served. */
export async function createServices(config: Config, log: FastifyBaseLogger, options: ServiceOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const events = new CoreEvents();
  const embedder = options.embedder ?? createEmbeddingProvider(config.embedding);
  await embedder.init();
  const llm = options.llm !== undefined ? options.llm : createLlmProvider(config.llm);

  let storage: SqlStorage | undefined;
  try {
    storage = await openStorage(config.storage, embedder.dimensions);
    await checkEmbedderIdentity(storage, embedder);
  } catch (error) {
    await storage?.close();
    await embedder.close();
    throw error;
  }

  const workspaces = new WorkspaceService(storage, clock, events);
  const memories = new MemoryService({ storage, embedder, clock, events });
  const enricher = new MemoryEnricher({ storage, embedder, llm, clock, events, log });
  const tasks = new TaskRunner(storage, clock, events, config.tasks, log);
  tasks.register(ENRICH_TASK, enricher.handle);

  const analyzer = new GraphAnalyzer(config.graph.workerMinSize);
  const graph = new GraphService(storage, analyzer, config.graph);
  const knowledgebase = new KnowledgebaseService({ storage, graph, llm, clock, events, log });
  tasks.register(KNOWLEDGEBASE_TASK, knowledgebase.handle);

  let ready = false;
  const db = storage;
  return {
    config,
    clock,
    events,
    storage,
    embedder,
    queryEmbedder: withEmbeddingCache(embedder, QUERY_EMBEDDING_CACHE),
    llm,
    workspaces,
    memories,
    enricher,
    associations: new AssociationService(storage, clock, events),
    graph,
    knowledgebase,
    sessions: new SessionService(storage, workspaces, clock),
    apiKeys: new ApiKeyService(storage, clock, config.auth.adminKey),
    tasks,
    isReady: () => ready,
    async start() {
      // The embedded engine belongs to this one process: whatever was running belonged to a process now dead.
      if (db.dialect === 'sqlite') await db.tasks.releaseAllLeases();
      await db.engine.warmUp(db.sqlContext.db);
      tasks.start();
      ready = true;
    },
    async close() {
      ready = false;
      await tasks.stop();
      await analyzer.close();
      await db.close();
      await embedder.close();
    },
  };
}
