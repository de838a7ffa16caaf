import { methodsOver } from '../operations.js';
import type { Transport } from '../transport.js';

/** Analysis of a workspace's association graph. */
export function graphApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    snapshot: op('get', '/v1/graph/snapshot'),
    stats: op('get', '/v1/graph/stats'),
    communities: op('get', '/v1/graph/communities'),
    centrality: op('get', '/v1/graph/centrality'),
    bridges: op('get', '/v1/graph/bridges'),
    /** Stats, communities, centrality and bridges in one pass. */
    analyze: op('post', '/v1/graph/analyze', { idempotent: true }),
  };
}

/** The knowledgebase: one article per community of the graph, and an index. */
export function knowledgebaseApi(transport: Transport) {
  const op = methodsOver(transport);
  return {
    /** Write or update the articles; `{async: true}` answers a job (status 202). */
    generate: op('post', '/v1/knowledgebase/generate'),
    job: op('get', '/v1/knowledgebase/jobs/{job_id}'),
    /** The last generation and the index article. */
    get: op('get', '/v1/knowledgebase'),
    articles: op('get', '/v1/knowledgebase/articles'),
    /** One article by its path-style id, e.g. `topics/databases`. */
    article: op('get', '/v1/knowledgebase/articles/{*}'),
    export: op('get', '/v1/knowledgebase/export'),
    graph: op('get', '/v1/knowledgebase/graph'),
    community: op('get', '/v1/knowledgebase/graph/communities/{community_id}'),
  };
}
