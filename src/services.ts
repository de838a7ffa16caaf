import type { Config } from './config.js';
import { AccessResolver } from './core/access/access.js';
import { ApplicationService } from './core/applications/service.js';
import { ApiKeyService } from './core/auth/api-keys.js';
import { systemClock, type Clock } from './core/clock.js';
import { CoreEvents } from './core/events.js';
import { HealthCheck } from './core/health.js';
import { QueueReadings } from './core/queue-reading.js';
import { PortabilityService } from './core/portability/service.js';
import { CallerSearch } from './core/recall/caller.js';
import { GraphAnalyzer } from './core/graph/analysis/analyzer.js';
import { AssociationService } from './core/graph/associations.js';
import { GraphService } from './core/graph/service.js';
import { KNOWLEDGEBASE_TASK, KnowledgebaseService } from './core/knowledgebase/service.js';
import { MemoryEnricher } from './core/memories/enrich.js';
import { ENRICH_TASK, MemoryService } from './core/memories/service.js';
import { mentionsBackfill } from './core/memories/mentions-backfill.js';
import {
  ContextService,
  DatabaseCheckpointStore,
  recallMemorySearch,
  sandboxHost,
  type SandboxHostDeps,
} from './core/context/index.js';
import {
  CONTRADICTION_MIN_SIMILARITY,
  CONTRADICTION_NEIGHBOURS,
  ContradictionDetector,
} from './core/contradictions/detector.js';
import { ContradictionService } from './core/contradictions/service.js';
import { DataProviderService } from './core/data-providers/service.js';
import { emptyLocalSync } from './core/data-providers/sync.js';
import { DocumentExtractor } from './core/documents/extractor.js';
import { DocumentIngestor, INGEST_TASK } from './core/documents/ingest.js';
import { DocumentReader } from './core/documents/reader.js';
import { PageRenderer } from './core/documents/renderer.js';
import { DocumentService } from './core/documents/service.js';
import { EntityService } from './core/entities/service.js';
import { ErasureService } from './core/erasure/service.js';
import { McpServerService } from './core/mcp-servers/service.js';
import { LlmReranker } from './core/recall/rerank.js';
import { RecallService, type RecallTuning } from './core/recall/service.js';
import { ReflectService } from './core/reflect/service.js';
import { openSecretBox } from './core/secrets/key.js';
import type { SecretBox } from './core/secrets/secret-box.js';
import { BriefingService } from './core/sessions/briefing.js';
import { SessionCommitter } from './core/sessions/commit.js';
import { SESSION_EXPIRE_TASK, SessionExpiry } from './core/sessions/expiry.js';
import { SessionService, type SandboxCleanup } from './core/sessions/service.js';
import { SkillService } from './core/skills/service.js';
import { THREAD_DECOMPOSE_TASK, ThreadDecomposer } from './core/threads/decompose.js';
import { ThreadService } from './core/threads/service.js';
import { WorkspaceService } from './core/workspaces/service.js';
import { createEmbeddingProvider, withEmbeddingCache, type EmbeddingProvider } from './providers/embedding/index.js';
import { createLlmProvider } from './providers/llm/index.js';
import { createOcrProvider } from './providers/ocr/index.js';
import { createTranscriber } from './providers/transcription/openai.js';
import type { LlmProvider } from './providers/llm/types.js';
import { checkEmbedderIdentity } from './core/embedder-identity.js';
import {
  createObservability,
  instrumentedEmbedder,
  instrumentedLlm,
  type ContextLogger,
  type Observability,
} from './observability/index.js';
import { SandboxManager } from './sandbox/index.js';
import { openStorage } from './storage/index.js';
import type { SqlStorage } from './storage/sql/storage.js';
import { recurringTask } from './tasks/recurring.js';
import { ForegroundActivity } from './tasks/foreground.js';
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
  /** Turns what a request names (workspace, session, record id) into the caller's Access. */
  access: AccessResolver;
  workspaces: WorkspaceService;
  memories: MemoryService;
  enricher: MemoryEnricher;
  associations: AssociationService;
  graph: GraphService;
  knowledgebase: KnowledgebaseService;
  sessions: SessionService;
  recall: RecallService;
  reflect: ReflectService;
  /** Recall and reflect in the caller's workspace, through its session. */
  search: CallerSearch;
  briefings: BriefingService;
  threads: ThreadService;
  contradictions: ContradictionService;
  entities: EntityService;
  documents: DocumentService;
  /** One Python sandbox per session (the context environment); checkpoints live in the database. */
  sandboxes: SandboxManager;
  /** The context environment's operations that search memories or ask the language model. */
  context: ContextService;
  apiKeys: ApiKeyService;
  /** Seals MCP env/header values and data-provider `encrypted_args` at rest. */
  secrets: SecretBox;
  applications: ApplicationService;
  skills: SkillService;
  mcpServers: McpServerService;
  dataProviders: DataProviderService;
  portability: PortabilityService;
  health: HealthCheck;
  /** Removes everything of a user or a subject, with an audit record. */
  erasure: ErasureService;
  tasks: TaskRunner;
  /** Client requests in flight; background tasks give way to them. */
  foreground: ForegroundActivity;
  /** Metrics (served at /metrics) and traces (exported when OTEL_* asks). */
  observability: Observability;
  /** True once search indexes are warm and background work runs. */
  isReady(): boolean;
  /** Resolves once every write committed so far is durable; awaited before a write is acknowledged. */
  syncWrites(): Promise<void>;
  /** Warms search indexes and starts the task runner; resolves when ready. */
  start(): Promise<void>;
  /** Stops background work and releases the database and the model workers. */
  close(): Promise<void>;
}

/** What transports (HTTP, MCP) reach: every core operation, never the storage beneath them. */
export type CoreServices = Omit<Services, 'storage'>;

export interface ServiceOptions {
  clock?: Clock;
  /** Replaces the configured embedder (tests inject a deterministic one). */
  embedder?: EmbeddingProvider;
  llm?: LlmProvider | null;
  /** Replaces the recall ranking knobs (benchmarks compare settings with it). */
  recallTuning?: RecallTuning;
}

/** Builds every service from the configuration. Fails with a clear message if the data cannot be served. */
export async function createServices(
  config: Config,
  log: ContextLogger,
  options: ServiceOptions = {},
): Promise<Services> {
  const clock = options.clock ?? systemClock;
  // The gauges read the queue and the sandboxes when scraped, by then built.
  const observability = await createObservability(config, log, {
    // The scrape's instant: a reused reading's oldest task has waited since it was read.
    taskQueue: async () => ({ summary: (await queue.read()).summary, at: clock.now() }),
    liveSandboxes: () => sandboxes.liveCount,
  });
  const { metrics, tracing } = observability;
  const embedder = instrumentedEmbedder(
    options.embedder ?? createEmbeddingProvider(config.embedding),
    metrics,
    tracing,
  );
  await embedder.init();
  const model = options.llm !== undefined ? options.llm : createLlmProvider(config.llm);
  const llm = model && instrumentedLlm(model, metrics, tracing);

  const foreground = new ForegroundActivity();
  let storage: SqlStorage | undefined;
  let secrets: SecretBox;
  try {
    // Background work gives way to client requests: enrichment's steps (the task runner) and the storage's own.
    storage = await openStorage(config.storage, embedder.dimensions, () =>
      foreground.giveWay(config.tasks.foregroundWaitMs),
    );
    await checkEmbedderIdentity(storage, embedder);
    secrets = openSecretBox(config.secrets, storage.dialect);
  } catch (error) {
    await storage?.close();
    await embedder.close();
    await observability.shutdown();
    throw error;
  }
  const db = storage;
  const queue = new QueueReadings((now) => db.tasks.summary(now), clock);

  const events = new CoreEvents(storage.workspaces);
  const queryEmbedder = withEmbeddingCache(embedder, QUERY_EMBEDDING_CACHE);
  const recall = new RecallService({
    storage,
    queryEmbedder,
    clock,
    llm,
    reranker: config.recall.reranker === 'llm' && llm ? new LlmReranker(llm) : null,
    log,
    cache: { maxEntries: config.recall.cacheEntries, ttlMs: config.recall.cacheTtlMs },
    telemetry: observability,
    ...(options.recallTuning && { tuning: options.recallTuning }),
  });
  // The context environment searches memories with the recall engine.
  const search = recallMemorySearch(recall, storage);
  const hostDeps: SandboxHostDeps = {
    llm,
    search,
    workspaceOf: async (sessionId) => (await sessions.get(sessionId)).workspace_id,
  };
  const sandboxes = new SandboxManager({
    config: config.sandbox,
    store: new DatabaseCheckpointStore(storage, clock),
    hostFor: (sessionId) => sandboxHost(sessionId, hostDeps),
    logger: log,
  });
  // A session that ends takes its sandbox with it (its checkpoint row goes by cascade); the session is gone either way.
  const sandboxCleanup: SandboxCleanup = {
    cleanup: (sessionId) =>
      sandboxes
        .discard(sessionId)
        .catch((error: unknown) =>
          log.warn({ sessionId, err: error }, 'stopping the sandbox of an ended session failed'),
        ),
  };
  const workspaces = new WorkspaceService(storage, clock, events, sandboxCleanup);
  const memories = new MemoryService({
    storage,
    embedder,
    clock,
    events,
    writeScope: (workspaceId) => workspaces.writeScope(workspaceId),
    keepSessionAlive: (sessionId): Promise<void> => sessions.keepAlive(sessionId),
    settleAccess: (workspaceId, memoryId) => recall.settleAccess(workspaceId, memoryId),
    telemetry: observability,
  });
  const enricher = new MemoryEnricher({ storage, embedder, llm, clock, events, log, telemetry: observability });
  const tasks = new TaskRunner(storage, clock, events, config.tasks, log, foreground, observability);
  tasks.registerBatch(ENRICH_TASK, enricher.handleMany);

  const committer = new SessionCommitter({ storage, memories, workspaces, llm, clock, log });
  const briefings = new BriefingService(storage, workspaces, clock);
  const expiry = new SessionExpiry({ storage, committer, clock, events, sandboxes: sandboxCleanup });
  const decomposer = new ThreadDecomposer({ storage, memories, workspaces, llm, clock, log });
  const threads = new ThreadService({ storage, workspaces, decomposer, clock, events });
  const detector = new ContradictionDetector({ storage, llm, clock, log });
  enricher.addStep('contradictions', detector.onWrite, {
    neighbours: CONTRADICTION_NEIGHBOURS,
    minSimilarity: CONTRADICTION_MIN_SIMILARITY,
  });
  tasks.register(SESSION_EXPIRE_TASK, expiry.expire);
  tasks.register(THREAD_DECOMPOSE_TASK, decomposer.handle);
  const recurring = [expiry.sweep, threads.cleanup, mentionsBackfill(storage)].map((work) =>
    recurringTask(storage, clock, work),
  );
  for (const task of recurring) tasks.register(task.kind, task.handler);
  const sessions = new SessionService(storage, workspaces, clock, committer, briefings, sandboxCleanup);
  const analyzer = new GraphAnalyzer(config.graph.workerMinSize);
  const graph = new GraphService(storage, analyzer, config.graph);
  const knowledgebase = new KnowledgebaseService({ storage, graph, llm, clock, events, log });
  tasks.register(KNOWLEDGEBASE_TASK, knowledgebase.handle);
  const { extractTimeoutMs: timeoutMs, extractMemoryMb: memoryMb, maxExpandedBytes, renderMemoryMb } = config.documents;
  const extractor = new DocumentExtractor({ timeoutMs, memoryMb, maxExpandedBytes });
  const renderer = new PageRenderer({ memoryMb: renderMemoryMb });
  const ocr = createOcrProvider(config.ocr);
  const reader = new DocumentReader({
    extractor,
    renderer,
    ocr,
    transcriber: createTranscriber(config.transcription),
    ocrLimits: config.ocr,
  });
  const ingestor = new DocumentIngestor({ storage, memories, workspaces, embedder, reader, clock, log });
  tasks.register(INGEST_TASK, ingestor.handle);

  const access = new AccessResolver({
    locator: storage.locator,
    session: (id) => sessions.get(id),
    presence: (id) => workspaces.presence(id),
    adopt: (id) => workspaces.adopt(id),
    createOnFirstUse: (id) => workspaces.createOnFirstUse(id),
    removeUnused: async (id, createdAt) => void (await workspaces.removeUnused(id, createdAt)),
    autoCreate: config.workspaces.autoCreate,
  });
  const reflect = new ReflectService({ recall, llm, clock });
  const callerSearch = new CallerSearch({
    recall,
    reflect,
    requireWorkspace: (id) => workspaces.get(id),
    keepSessionAlive: (id) => sessions.keepAlive(id),
  });

  let ready = false;
  const isReady = () => ready;
  return {
    config,
    clock,
    events,
    storage,
    embedder,
    queryEmbedder,
    llm,
    access,
    workspaces,
    memories,
    enricher,
    recall,
    reflect,
    search: callerSearch,
    associations: new AssociationService(storage, clock, events),
    graph,
    knowledgebase,
    sessions,
    briefings,
    threads,
    contradictions: new ContradictionService({ storage, memories, workspaces, detector, clock, events }),
    entities: new EntityService({ storage, memories, workspaces, llm, clock, log }),
    documents: new DocumentService({ storage, memories, workspaces, queryEmbedder, reader, clock, events }),
    sandboxes,
    context: new ContextService({ sandboxes, llm, search }),
    apiKeys: new ApiKeyService(storage, clock, config.auth.adminKey),
    secrets,
    applications: new ApplicationService(storage, workspaces, clock),
    skills: new SkillService({ storage, workspaces, clock }),
    mcpServers: new McpServerService({ storage, workspaces, secrets, clock }),
    // `local` is the only provider type of the open edition; its sync fetches nothing (docs/specification.md §4, data providers).
    dataProviders: new DataProviderService({ storage, workspaces, secrets, clock, syncers: { local: emptyLocalSync } }),
    portability: new PortabilityService({ storage, embedder, clock, events, workspaces }),
    health: new HealthCheck({
      storage,
      clock,
      queue,
      embedder,
      llm,
      isReady,
      finishedLastMinute: () => tasks.finishedLastMinute(),
    }),
    erasure: new ErasureService({ storage, clock, events, sandboxes: sandboxCleanup }),
    tasks,
    foreground,
    observability,
    isReady,
    syncWrites: () => db.syncWrites(),
    async start() {
      // The embedded engine belongs to this one process: whatever was running belonged to a process now dead.
      if (db.dialect === 'sqlite') await db.tasks.releaseAllLeases();
      const warming = performance.now();
      const index = await db.engine.warmUp(db.sqlContext.db);
      if (index) log.info({ ...index, ms: Math.round(performance.now() - warming) }, 'search index warm');
      recall.warmUp();
      for (const task of recurring) await task.seed();
      if (config.tasks.concurrency === 0 && db.dialect === 'sqlite')
        log.warn(
          { setting: 'MEMD_TASK_CONCURRENCY', value: 0 },
          'no background task runs (enrichment, document ingestion, expiry), and the embedded database has no other node to run them: they wait in the queue until this node starts with 1 or more',
        );
      tasks.start();
      ready = true;
    },
    async close() {
      ready = false;
      await tasks.stop();
      await analyzer.close();
      await extractor.close();
      await renderer.close();
      await ocr?.close();
      // Live sandboxes are checkpointed to the database before it closes.
      await sandboxes.close();
      await recall.close();
      await db.close();
      await embedder.close();
      await observability.shutdown();
    },
  };
}
