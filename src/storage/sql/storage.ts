import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { Storage } from '../types.js';
import { SqlApiKeyStore, SqlMetaStore } from './api-keys.js';
import { SqlApplicationStore } from './applications.js';
import { SqlAssociationStore } from './associations.js';
import type { SqlContext } from './context.js';
import { SqlContradictionStore } from './contradictions.js';
import { SqlDocumentStore } from './documents.js';
import { SqlErasureStore } from './erasure.js';
import { SqlDataProviderStore } from './data-providers.js';
import { SqlEntityStore } from './entities.js';
import { SqlKnowledgebaseStore } from './knowledgebase.js';
import { SqlMcpServerStore } from './mcp-servers.js';
import { SqlMemoryStore } from './memories.js';
import { SqlSandboxCheckpointStore } from './sandbox-checkpoints.js';
import { SqlObjectLocator } from './locator.js';
import type { SearchEngine } from './search-engine.js';
import { SqlSessionStore } from './sessions.js';
import { SqlSkillStore } from './skills.js';
import { SqlTaskStore } from './tasks.js';
import { SqlThreadStore } from './threads.js';
import { SqlContextStore, SqlWorkspaceStore } from './workspaces.js';

/**
 * The Storage interface over Kysely, shared by both engines. An instance is bound to one executor:
 * the root connection, or a transaction whose after-commit effects it collects.
 */
export class SqlStorage implements Storage {
  readonly meta;
  readonly workspaces;
  readonly contexts;
  readonly memories;
  readonly associations;
  readonly tasks;
  readonly apiKeys;
  readonly sessions;
  readonly threads;
  readonly contradictions;
  readonly entities;
  readonly knowledgebase;
  readonly documents;
  readonly sandboxCheckpoints;
  readonly locator;
  readonly applications;
  readonly skills;
  readonly mcpServers;
  readonly dataProviders;
  readonly erasure;

  private readonly context: SqlContext;

  constructor(
    private readonly root: Kysely<Database>,
    readonly engine: SearchEngine,
    private readonly onClose: () => Promise<void>,
    /** Engine-specific durability barrier (SQLite: fsync the WAL); Postgres is durable at commit. */
    private readonly durabilityBarrier: () => Promise<void> = async () => {},
    executor: Kysely<Database> = root,
    private readonly pendingEffects: Array<() => void> | null = null,
  ) {
    this.context = {
      db: executor,
      engine,
      afterCommit: (effect) => (pendingEffects ? pendingEffects.push(effect) : effect()),
    };
    this.meta = new SqlMetaStore(this.context);
    this.workspaces = new SqlWorkspaceStore(this.context);
    this.contexts = new SqlContextStore(this.context);
    this.memories = new SqlMemoryStore(this.context);
    this.associations = new SqlAssociationStore(this.context);
    this.tasks = new SqlTaskStore(this.context);
    this.apiKeys = new SqlApiKeyStore(this.context);
    this.sessions = new SqlSessionStore(this.context);
    this.threads = new SqlThreadStore(this.context);
    this.contradictions = new SqlContradictionStore(this.context);
    this.entities = new SqlEntityStore(this.context);
    this.knowledgebase = new SqlKnowledgebaseStore(this.context);
    this.documents = new SqlDocumentStore(this.context);
    this.sandboxCheckpoints = new SqlSandboxCheckpointStore(this.context);
    this.locator = new SqlObjectLocator(this.context);
    this.applications = new SqlApplicationStore(this.context);
    this.skills = new SqlSkillStore(this.context);
    this.mcpServers = new SqlMcpServerStore(this.context);
    this.dataProviders = new SqlDataProviderStore(this.context);
    this.erasure = new SqlErasureStore(this.context);
  }

  get dialect() {
    return this.engine.dialect;
  }

  /** The executor of this instance, for dialect modules that add repositories of their own. */
  get sqlContext(): SqlContext {
    return this.context;
  }

  async transaction<T>(work: (tx: Storage) => Promise<T>): Promise<T> {
    // Nested calls join the transaction already open.
    if (this.pendingEffects) return work(this);
    const effects: Array<() => void> = [];
    const result = await this.root
      .transaction()
      .execute((trx) =>
        work(new SqlStorage(this.root, this.engine, this.onClose, this.durabilityBarrier, trx, effects)),
      );
    for (const effect of effects) effect();
    return result;
  }

  syncWrites(): Promise<void> {
    return this.durabilityBarrier();
  }

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.root);
  }

  async close(): Promise<void> {
    this.engine.close();
    await this.onClose();
    await this.root.destroy();
  }
}
