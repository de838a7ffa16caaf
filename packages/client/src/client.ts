import { graphApi, knowledgebaseApi } from './resources/analysis.js';
import { documentsApi } from './resources/documents.js';
import { associationsApi, contradictionsApi, entitiesApi, memoriesApi } from './resources/memories.js';
import { applicationsApi, dataProvidersApi, mcpServersApi, skillsApi } from './resources/registries.js';
import { apiKeysApi, erasuresApi, healthApi } from './resources/service.js';
import { contextApi, sessionsApi, threadsApi } from './resources/sessions.js';
import { workspacesApi } from './resources/workspaces.js';
import { requestOver, type RequestOptions } from './request.js';
import { Transport, type Answer, type ClientOptions } from './transport.js';

/**
 * The memd API, one method per operation, grouped by resource. Every method answers the response body typed from
 * the API's OpenAPI document, and throws a `MemdError` subclass (by status) when the call fails.
 */
export class MemdClient {
  readonly health: ReturnType<typeof healthApi>;
  readonly memories: ReturnType<typeof memoriesApi>;
  readonly associations: ReturnType<typeof associationsApi>;
  readonly entities: ReturnType<typeof entitiesApi>;
  readonly contradictions: ReturnType<typeof contradictionsApi>;
  readonly workspaces: ReturnType<typeof workspacesApi>;
  readonly sessions: ReturnType<typeof sessionsApi>;
  readonly context: ReturnType<typeof contextApi>;
  readonly threads: ReturnType<typeof threadsApi>;
  readonly graph: ReturnType<typeof graphApi>;
  readonly knowledgebase: ReturnType<typeof knowledgebaseApi>;
  readonly documents: ReturnType<typeof documentsApi>;
  readonly skills: ReturnType<typeof skillsApi>;
  readonly mcpServers: ReturnType<typeof mcpServersApi>;
  readonly applications: ReturnType<typeof applicationsApi>;
  readonly dataProviders: ReturnType<typeof dataProvidersApi>;
  readonly apiKeys: ReturnType<typeof apiKeysApi>;
  readonly erasures: ReturnType<typeof erasuresApi>;
  readonly #options: ClientOptions;
  readonly #request: ReturnType<typeof requestOver>;

  constructor(options: ClientOptions) {
    this.#options = { ...options };
    const transport = new Transport(options);
    this.health = healthApi(transport);
    this.memories = memoriesApi(transport);
    this.associations = associationsApi(transport);
    this.entities = entitiesApi(transport);
    this.contradictions = contradictionsApi(transport);
    this.workspaces = workspacesApi(transport);
    this.sessions = sessionsApi(transport);
    this.context = contextApi(transport);
    this.threads = threadsApi(transport);
    this.graph = graphApi(transport);
    this.knowledgebase = knowledgebaseApi(transport);
    this.documents = documentsApi(transport);
    this.skills = skillsApi(transport);
    this.mcpServers = mcpServersApi(transport);
    this.applications = applicationsApi(transport);
    this.dataProviders = dataProvidersApi(transport);
    this.apiKeys = apiKeysApi(transport);
    this.erasures = erasuresApi(transport);
    this.#request = requestOver(transport);
  }

  /**
   * Any request, untyped: for a route this client has no method for, or a body its types would refuse. `path` is
   * from the server's root (`/v1/memories/mem_1`), sent as given; the client's headers, timeout and retries apply.
   * It never throws for a status: a failure is answered with its error body once the retries (429, 503) are spent.
   * A connection failure, a timeout or the caller's abort still throw.
   */
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<Answer<T>> {
    return this.#request<T>(method, path, options);
  }

  /**
   * The same client acting in a session: every call sends `X-Session-ID`, so writes belong to the session (its
   * context and user), the session stays alive, and `context.*` reaches its sandbox.
   */
  withSession(sessionId: string): MemdClient {
    return new MemdClient({ ...this.#options, sessionId });
  }

  /** The same client with another default workspace (`X-Workspace-ID`). */
  withWorkspace(workspaceId: string): MemdClient {
    return new MemdClient({ ...this.#options, workspaceId });
  }
}
