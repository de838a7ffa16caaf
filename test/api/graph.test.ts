import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { graphWorkspace, link, remember, texts } from '../support/graph.js';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

type Pair = [number, number];
const clique = (offset: number, size: number): Pair[] => {
  const pairs: Pair[] = [];
  for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) pairs.push([offset + i, offset + j]);
  return pairs;
};

/** A workspace holding `size` memories joined by the given pairs (index → index, `related_to` unless said). */
async function graph(
  name: string,
  size: number,
  pairs: Pair[],
  relationship = 'related_to',
): Promise<{ ws: string; ids: string[] }> {
  const ws = await graphWorkspace(memd, name);
  const ids = await remember(memd, ws, texts(size, name));
  for (const [s, t] of pairs) await link(memd, ws, ids[s]!, ids[t]!, relationship, 0.8);
  return { ws, ids };
}

const get = async (path: string) => {
  const res = await api.get(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

describe('graph analysis on graphs whose answers are known', () => {
  it('a barbell (two 4-cliques joined by one edge): one bridge, two articulation points, two communities', async () => {
    const { ws, ids } = await graph('barbell', 8, [...clique(0, 4), ...clique(4, 4), [3, 4]]);
    const bridges = await get(`/v1/graph/bridges?workspace_id=${ws}`);
    expect(bridges.bridges).toHaveLength(1);
    expect([...bridges.bridges[0].memory_ids].sort()).toEqual([ids[3], ids[4]].sort());
    expect(bridges.bridges[0].associations).toEqual([
      expect.objectContaining({ source_id: ids[3], target_id: ids[4], relationship: 'related_to' }),
    ]);
    expect(bridges.articulation_points.map((p: { memory_id: string }) => p.memory_id).sort()).toEqual(
      [ids[3], ids[4]].sort(),
    );

    const communities = await get(`/v1/graph/communities?workspace_id=${ws}`);
    expect(communities.community_count).toBe(2);
    expect(communities.communities.map((c: { memory_ids: string[] }) => [...c.memory_ids].sort()).sort()).toEqual(
      [ids.slice(0, 4).sort(), ids.slice(4).sort()].sort(),
    );
    expect(communities.communities[0]).toMatchObject({ id: 0, size: 4, cohesion: 1, internal_edges: 6 });
    expect(communities.modularity).toBeGreaterThan(0.3);
    // The same graph gives the same communities every time.
    expect(await get(`/v1/graph/communities?workspace_id=${ws}`)).toEqual(communities);

    const stats = await get(`/v1/graph/stats?workspace_id=${ws}`);
    expect(stats).toMatchObject({
      node_count: 8,
      edge_count: 13,
      pair_count: 13,
      connected_components: 1,
      largest_component_size: 8,
      isolated_nodes: 0,
      max_degree: 4,
      relationship_counts: { related_to: 13 },
      category_counts: { similarity: 13 },
    });
    expect(stats.density).toBeCloseTo(13 / 28, 5);
    expect(stats.average_degree).toBeCloseTo(26 / 8, 5);
  });

  it('a star: the centre has the top betweenness (1), degree and PageRank; the leaves have none', async () => {
    const { ws, ids } = await graph('star', 6, [
      [0, 1],
      [0, 2],
      [0, 3],
      [4, 0],
      [5, 0],
    ]);
    for (const sortBy of ['betweenness', 'degree', 'pagerank', 'eigenvector']) {
      const ranked = await get(`/v1/graph/centrality?workspace_id=${ws}&sort_by=${sortBy}`);
      expect(ranked.nodes[0].memory_id).toBe(ids[0]);
    }
    const centrality = await get(`/v1/graph/centrality?workspace_id=${ws}&sort_by=betweenness`);
    expect(centrality).toMatchObject({
      betweenness_method: 'exact',
      betweenness_samples: 6,
      eigenvector_converged: true,
    });
    expect(centrality.nodes[0]).toMatchObject({
      degree: 5,
      in_degree: 2,
      out_degree: 3,
      degree_centrality: 1,
      betweenness: 1,
    });
    expect(
      centrality.nodes.slice(1).map((n: { betweenness: number; degree: number }) => [n.betweenness, n.degree]),
    ).toEqual(Array(5).fill([0, 1]));
    expect((await get(`/v1/graph/centrality?workspace_id=${ws}&limit=2`)).nodes).toHaveLength(2);
    expect((await get(`/v1/graph/bridges?workspace_id=${ws}`)).articulation_points).toEqual([
      { memory_id: ids[0], degree: 5 },
    ]);
  });

  it('a path: the inner memories are articulation points and every edge is a bridge; components and isolated memories are counted', async () => {
    const { ws, ids } = await graph('path', 8, [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
      [5, 6],
    ]);
    const bridges = await get(`/v1/graph/bridges?workspace_id=${ws}`);
    expect(bridges.articulation_points.map((p: { memory_id: string }) => p.memory_id).sort()).toEqual(
      [ids[1], ids[2], ids[3]].sort(),
    );
    expect(bridges.bridges).toHaveLength(5);
    const stats = await get(`/v1/graph/stats?workspace_id=${ws}`);
    expect(stats).toMatchObject({
      node_count: 8,
      connected_components: 3,
      largest_component_size: 5,
      isolated_nodes: 1,
    });
    // A triangle has no bridge.
    const triangle = await graph('triangle', 3, clique(0, 3));
    expect(await get(`/v1/graph/bridges?workspace_id=${triangle.ws}`)).toMatchObject({
      articulation_points: [],
      bridges: [],
    });
  });

  it('analyze runs everything in one pass, with a summary that agrees with the parts', async () => {
    const { ws, ids } = await graph('analyze', 8, [...clique(0, 4), ...clique(4, 4), [3, 4]]);
    const res = await api.post('/v1/graph/analyze', { workspace_id: ws, top_k: 3, include_rpg: true });
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a).toMatchObject({ workspace_id: ws, node_count: 8, edge_count: 13, truncated: false, includes_rpg: false });
    expect(a.summary).toMatchObject({
      node_count: 8,
      edge_count: 13,
      community_count: 2,
      largest_community_size: 4,
      connected_components: 1,
      articulation_point_count: 2,
      bridge_count: 1,
    });
    expect(a.summary.text).toContain('8 memories and 13 associations');
    expect(a.centrality.nodes).toHaveLength(3);
    expect([ids[3], ids[4]]).toContain(a.centrality.nodes[0].memory_id);
    expect(a.communities).toMatchObject({ community_count: 2 });
    expect(a.stats).toMatchObject({ pair_count: 13 });
    expect(a.analysis_ms).toEqual(expect.any(Number));
  });
});

describe('graph scope and parameters', () => {
  it('filters by relationship types, memory types and context, and leaves deleted memories out', async () => {
    const ws = await graphWorkspace(memd, 'graph-scope');
    const [a, b, c, d] = await remember(memd, ws, texts(4, 'scope'));
    const [e] = await remember(memd, ws, texts(1, 'procedure'), { type: 'procedural', context_id: 'ops' });
    await link(memd, ws, a!, b!, 'causes');
    await link(memd, ws, b!, c!, 'similar_to');
    await link(memd, ws, c!, e!, 'requires');
    await link(memd, ws, d!, a!, 'related_to');
    await api.delete(`/v1/memories/${d}?workspace_id=${ws}`);

    const all = await get(`/v1/graph/snapshot?workspace_id=${ws}`);
    expect(all.nodes.map((n: { id: string }) => n.id).sort()).toEqual([a, b, c, e].sort());
    expect(all.edges).toHaveLength(3);
    expect(all.edges[0]).toEqual({
      id: expect.any(String),
      source: expect.any(String),
      target: expect.any(String),
      relationship: expect.any(String),
      strength: 0.5,
    });
    expect(all.nodes.find((n: { id: string }) => n.id === e)).toMatchObject({
      type: 'procedural',
      context_id: 'ops',
      label: expect.any(String),
    });

    const causal = await get(`/v1/graph/stats?workspace_id=${ws}&relationship_types=CAUSES,similar_to`);
    expect(causal).toMatchObject({ node_count: 4, edge_count: 2, relationship_counts: { causes: 1, similar_to: 1 } });
    expect((await get(`/v1/graph/stats?workspace_id=${ws}&node_types=semantic`)).node_count).toBe(3);
    expect((await get(`/v1/graph/stats?workspace_id=${ws}&node_types=semantic&node_types=procedural`)).node_count).toBe(
      4,
    );
    expect(
      (await get(`/v1/graph/snapshot?workspace_id=${ws}&context_id=ops`)).nodes.map((n: { id: string }) => n.id),
    ).toEqual([e]);
    expect((await get(`/v1/graph/snapshot?workspace_id=${ws}&max_nodes=2`)).truncated).toBe(true);
    expect((await api.get(`/v1/graph/stats?workspace_id=${ws}&node_types=dream`)).status).toBe(422);
    expect((await api.get(`/v1/graph/stats?workspace_id=${ws}&relationship_types=hugs`)).status).toBe(422);
  });

  it('validates community parameters and drops communities below min_size', async () => {
    const { ws } = await graph('graph-params', 7, [...clique(0, 4), [4, 5]]);
    const big = await get(`/v1/graph/communities?workspace_id=${ws}&min_size=3`);
    expect(big).toMatchObject({ community_count: 1, unassigned_count: 3 });
    expect((await api.get(`/v1/graph/communities?workspace_id=${ws}&algorithm=leiden`)).status).toBe(422);
    expect((await api.get(`/v1/graph/communities?workspace_id=${ws}&resolution=0`)).status).toBe(422);
    expect((await api.get(`/v1/graph/centrality?workspace_id=${ws}&sort_by=charisma`)).status).toBe(422);
    // A workspace named for the first time is created, empty.
    expect((await api.get(`/v1/graph/stats?workspace_id=no-such-workspace`)).body).toMatchObject({
      node_count: 0,
      edge_count: 0,
    });
  });

  it('sees only the resolved workspace (query, X-Workspace-ID header)', async () => {
    const a = await graph('graph-iso-a', 3, clique(0, 3));
    await graphWorkspace(memd, 'graph-iso-b');
    expect(await get('/v1/graph/stats?workspace_id=graph-iso-b')).toMatchObject({
      node_count: 0,
      edge_count: 0,
      connected_components: 0,
    });
    const viaHeader = (await api.get('/v1/graph/snapshot', { 'X-Workspace-ID': a.ws })).body;
    expect(viaHeader.nodes).toHaveLength(3);
    expect((await api.get('/v1/graph/snapshot', { 'X-Workspace-ID': 'graph-iso-b' })).body.nodes).toEqual([]);
    const analysis = (await api.post('/v1/graph/analyze', { workspace_id: 'graph-iso-b' })).body;
    expect(analysis.summary).toMatchObject({ node_count: 0, community_count: 0, most_central_memory_ids: [] });
  });
});

describe('bounded analysis', () => {
  it('analyses in a worker thread with the same answers, and says when the node bound truncated the graph', async () => {
    const bounded = await startServer({ env: { MEMD_GRAPH_WORKER_MIN_SIZE: '0', MEMD_GRAPH_MAX_NODES: '10' } });
    try {
      const remote = client(bounded.url);
      const remoteMemd = memdClient(bounded.url);
      const ws = await graphWorkspace(remoteMemd, 'worker');
      const ids = await remember(remoteMemd, ws, texts(12, 'worker'));
      // Only the newest ten memories are analysed: 2..11, here a barbell of two 5-cliques (5 memories each) and a bridge.
      for (const [s, t] of [...clique(2, 5), ...clique(7, 5), [6, 7] as Pair, [0, 1] as Pair])
        await link(remoteMemd, ws, ids[s]!, ids[t]!, 'related_to', 0.8);
      const analysis = (await remote.post('/v1/graph/analyze', { workspace_id: ws })).body;
      expect(analysis).toMatchObject({ node_count: 10, truncated: true });
      expect(analysis.summary).toMatchObject({ community_count: 2, bridge_count: 1, articulation_point_count: 2 });
      expect(analysis.bridges.bridges[0].memory_ids.sort()).toEqual([ids[6], ids[7]].sort());
    } finally {
      await bounded.stop();
    }
  });

  it('analyses only the newest memories when asked (max_nodes), the same ones a snapshot of that size holds', async () => {
    // Twelve memories: an old 4-clique (0..3) and a newer barbell of two triangles joined by a bridge (6..11).
    const { ws, ids } = await graph('graph-newest', 12, [
      ...clique(0, 4),
      ...clique(6, 3),
      ...clique(9, 3),
      [8, 9],
      [3, 6],
    ]);
    const whole = (await api.post('/v1/graph/analyze', { workspace_id: ws })).body;
    expect(whole).toMatchObject({ node_count: 12, edge_count: 14, truncated: false });
    const newest = await api.post('/v1/graph/analyze', { workspace_id: ws, max_nodes: 6, top_k: 6 });
    expect(newest.status).toBe(200);
    expect(newest.body).toMatchObject({ node_count: 6, edge_count: 7, truncated: true });
    expect(newest.body.summary).toMatchObject({ community_count: 2, bridge_count: 1 });
    const analysed = newest.body.centrality.nodes.map((n: { memory_id: string }) => n.memory_id).sort();
    const drawn = (await get(`/v1/graph/snapshot?workspace_id=${ws}&max_nodes=6`)).nodes
      .map((n: { id: string }) => n.id)
      .sort();
    expect(analysed).toEqual(drawn);
    expect(analysed).toEqual(ids.slice(6).sort());
    expect((await api.post('/v1/graph/analyze', { workspace_id: ws, max_nodes: 0 })).status).toBe(422);
  });
});
