import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { newId } from '../../src/core/ids.js';
import { graphWorkspace, link, remember, texts } from '../support/graph.js';
import type { MemdClient } from '../../packages/client/src/index.js';
import { failureOf, memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

type TraverseRequest = NonNullable<Parameters<MemdClient['memories']['traverse']>[1]>;
type Path = Awaited<ReturnType<MemdClient['memories']['traverse']>>['paths'][number];

/** A traversal through the file's server, or through `via`. */
const traverse = (ws: string, id: string, body: TraverseRequest = {}, via: MemdClient = memd) =>
  via.memories.traverse(id, { workspace_id: ws, ...body });
const nodeLists = (paths: Path[]) => paths.map((p) => p.nodes.join('>')).sort();

/** Every path starts at the start, never repeats a memory, and its edges join consecutive memories. */
function expectWellFormed(paths: Path[], start: string, maxDepth: number) {
  for (const path of paths) {
    expect(path.nodes[0]).toBe(start);
    expect(new Set(path.nodes).size).toBe(path.nodes.length);
    expect(path.depth).toBe(path.edges.length);
    expect(path.depth).toBeLessThanOrEqual(maxDepth);
    path.edges.forEach((edge, i) => {
      expect([edge.source, edge.target].sort()).toEqual([path.nodes[i], path.nodes[i + 1]].sort());
    });
  }
}

describe('POST /v1/memories/{id}/traverse', () => {
  it('follows a chain to the requested depth (default 2), with path strength and latency', async () => {
    const ws = await graphWorkspace(memd, 'trav-chain');
    const [a, b, c, d] = await remember(memd, ws, texts(4, 'chain'));
    await link(memd, ws, a!, b!, 'leads_to', 0.8);
    await link(memd, ws, b!, c!, 'leads_to', 0.5);
    await link(memd, ws, c!, d!, 'leads_to', 0.9);
    const shallow = await traverse(ws, a!);
    expect(nodeLists(shallow.paths)).toEqual([`${a}>${b}`, `${a}>${b}>${c}`]);
    expect(shallow.total_paths).toBe(2);
    expect(shallow.unique_nodes.sort()).toEqual([a, b, c].sort());
    expect(shallow.query_latency_ms).toEqual(expect.any(Number));
    const two = shallow.paths.find((p) => p.depth === 2)!;
    expect(two.total_strength).toBeCloseTo(0.4, 6);
    expect(two.edges).toEqual([
      expect.objectContaining({ source: a, target: b, relationship: 'leads_to' }),
      expect.objectContaining({ source: b, target: c, relationship: 'leads_to' }),
    ]);
    const deep = await traverse(ws, a!, { max_depth: 3 });
    expect(deep.unique_nodes).toHaveLength(4);
    expect((await failureOf(traverse(ws, a!, { max_depth: 6 }))).status).toBe(422);
    expect((await failureOf(traverse(ws, a!, { max_depth: 0 }))).status).toBe(422);
  });

  it('honours direction, relationship types and categories (any case) and min_strength', async () => {
    const ws = await graphWorkspace(memd, 'trav-filter');
    const [hub, cause, fix, twin, weak] = await remember(memd, ws, texts(5, 'filter'));
    await link(memd, ws, cause!, hub!, 'causes', 0.9);
    await link(memd, ws, fix!, hub!, 'solves', 0.8);
    await link(memd, ws, hub!, twin!, 'similar_to', 0.7);
    await link(memd, ws, hub!, weak!, 'related_to', 0.2);
    const reached = async (body: TraverseRequest) =>
      (await traverse(ws, hub!, { max_depth: 1, ...body })).unique_nodes.filter((n) => n !== hub).sort();

    expect(await reached({})).toEqual([cause, fix, twin, weak].sort());
    expect(await reached({ direction: 'outgoing' })).toEqual([twin, weak].sort());
    expect(await reached({ direction: 'incoming' })).toEqual([cause, fix].sort());
    expect(await reached({ relationship_types: ['SOLVES', 'Similar_To'] })).toEqual([fix, twin].sort());
    expect(await reached({ relationship_categories: ['causal'] })).toEqual([cause]);
    expect(await reached({ relationship_categories: ['Similarity'], relationship_types: ['solves'] })).toEqual(
      [fix, twin, weak].sort(),
    );
    expect(await reached({ min_strength: 0.75 })).toEqual([cause, fix].sort());
    expect(await reached({ relationship_types: null, relationship_categories: null })).toHaveLength(4);
    expect((await failureOf(traverse(ws, hub!, { relationship_types: ['hugs'] }))).status).toBe(422);
    expect((await failureOf(traverse(ws, hub!, { relationship_categories: ['feelings'] }))).status).toBe(422);
  });

  it('accepts the client library’s body (depth 3, categories, max_paths, max_nodes)', async () => {
    const ws = await graphWorkspace(memd, 'trav-client');
    const [a, b] = await remember(memd, ws, texts(2, 'client'));
    await link(memd, ws, a!, b!, 'causes', 0.6);
    const res = await traverse(ws, a!, {
      max_depth: 3,
      direction: 'both',
      min_strength: 0,
      max_paths: 100,
      max_nodes: 50,
      relationship_categories: ['causal'],
    });
    expect(res).toMatchObject({ total_paths: 1, unique_nodes: [a, b] });
  });

  it('reaches the end of a longer stated chain within max_depth only through a shorter path, which it shows (automatic links)', async () => {
    const ws = 'trav-shortcut';
    // Similar contents: the write pipeline links them to each other (similar_to / variant_of, both ways).
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await memd.memories.create({
            workspace_id: ws,
            content: `Chain node ${i}: the deployment pipeline step number ${i} runs tests.`,
          })
        ).memory.id,
      );
    await server.drainTasks();
    for (let i = 0; i < 4; i++) await link(memd, ws, ids[i]!, ids[i + 1]!, 'leads_to', 0.9);
    const all = await traverse(ws, ids[0]!, { max_depth: 3, direction: 'outgoing', max_paths: 100 });
    expectWellFormed(all.paths, ids[0]!, 3);
    const toLast = all.paths.filter((p) => p.nodes.at(-1) === ids[4]);
    expect(toLast.length).toBeGreaterThan(0);
    // Every path that reaches m4 within 3 links takes at least one automatic link: the stated chain alone is 4 long.
    for (const path of toLast) expect(path.edges.some((e) => e.auto_generated)).toBe(true);
    // Following the stated links only, m4 is out of reach at depth 3 and reached at depth 4.
    const stated = await traverse(ws, ids[0]!, {
      max_depth: 3,
      direction: 'outgoing',
      relationship_types: ['leads_to'],
    });
    expect(stated.unique_nodes).not.toContain(ids[4]);
    expect(stated.paths.length).toBeGreaterThan(0);
    expect(stated.paths.every((p) => p.edges.every((e) => !e.auto_generated))).toBe(true);
    expect(
      (await traverse(ws, ids[0]!, { max_depth: 4, direction: 'outgoing', relationship_types: ['leads_to'] }))
        .unique_nodes,
    ).toContain(ids[4]);
  });

  it('never follows a cycle twice', async () => {
    const ws = await graphWorkspace(memd, 'trav-cycle');
    const [a, b, c] = await remember(memd, ws, texts(3, 'cycle'));
    await link(memd, ws, a!, b!, 'leads_to');
    await link(memd, ws, b!, c!, 'leads_to');
    await link(memd, ws, c!, a!, 'leads_to');
    const outgoing = await traverse(ws, a!, { max_depth: 5, direction: 'outgoing' });
    expect(nodeLists(outgoing.paths)).toEqual([`${a}>${b}`, `${a}>${b}>${c}`]);
    const both = await traverse(ws, a!, { max_depth: 5 });
    expectWellFormed(both.paths, a!, 5);
    expect(nodeLists(both.paths)).toEqual([`${a}>${b}`, `${a}>${b}>${c}`, `${a}>${c}`, `${a}>${c}>${b}`].sort());
    expect(both.unique_nodes).toHaveLength(3);
  });

  it('does not follow soft-deleted memories, refuses a deleted start and 404s an unknown one', async () => {
    const ws = await graphWorkspace(memd, 'trav-deleted');
    const [a, b, c] = await remember(memd, ws, texts(3, 'gone'));
    await link(memd, ws, a!, b!, 'leads_to');
    await link(memd, ws, b!, c!, 'leads_to');
    await memd.memories.delete(b!, { workspace_id: ws });
    expect(await traverse(ws, a!, { max_depth: 3 })).toMatchObject({ paths: [], total_paths: 0, unique_nodes: [a] });
    expect((await failureOf(traverse(ws, b!))).status).toBe(409);
    expect((await failureOf(traverse(ws, 'mem_0000000000000000'))).status).toBe(404);
    expect((await failureOf(traverse('someone-else', a!))).status).toBe(404);
  });

  it('keeps max_nodes and max_paths on a dense random graph, at every depth', async () => {
    // A server of its own: the enrichment its 1,000 memories queue (link and contradiction checks among 100,000
    // edges) stops with it, instead of holding up the next test's drainTasks() for most of a minute.
    const own = await startServer();
    try {
      await denseGraph(own);
    } finally {
      await own.stop();
    }
  });
});

/** 100,000 random edges among 1,000 memories; every traversal of it keeps its limits. */
async function denseGraph(server: TestServer) {
  const memd = memdClient(server.url);
  const ws = await graphWorkspace(memd, 'trav-dense');
  const ids = await remember(memd, ws, texts(1000, 'dense'));
  // 100,000 random edges among 1,000 memories (about 200 per memory), written straight to the table: one row per
  // pair, the last strength drawn for it winning as an upsert would, in multi-row statements (100,000 single
  // upserts are 100,000 round trips to a Postgres server).
  const random = seededRandom(42);
  const storage = server.app.services.storage;
  const edges = new Map<string, { source: string; target: string; strength: number }>();
  for (let i = 0; i < 100_000; i++) {
    const source = ids[Math.floor(random() * ids.length)]!;
    const target = ids[Math.floor(random() * ids.length)]!;
    if (source === target) continue;
    edges.set(`${source} ${target}`, { source, target, strength: Math.round(random() * 100) / 100 });
  }
  const rows = [...edges.values()].map(({ source, target, strength }) => ({
    id: newId('assoc'),
    workspace_id: ws,
    source_id: source,
    target_id: target,
    relationship: 'related_to',
    strength,
    metadata: '{}',
    created_at: new Date().toISOString(),
  }));
  await storage.sqlContext.db.transaction().execute(async (tx) => {
    for (let start = 0; start < rows.length; start += 2_000)
      await tx
        .insertInto('associations')
        .values(rows.slice(start, start + 2_000))
        .execute();
  });
  expect(await storage.associations.count(ws)).toBeGreaterThan(95_000);
  const bodies: TraverseRequest[] = [
    {},
    { max_depth: 5 },
    { max_depth: 5, max_nodes: 1000, max_paths: 1000 },
    { max_depth: 4, max_nodes: 7, max_paths: 500 },
    { max_depth: 3, max_paths: 3 },
  ];
  for (const body of bodies) {
    const res = await traverse(ws, ids[0]!, body, memd);
    expect(res.unique_nodes.length).toBeLessThanOrEqual(body.max_nodes ?? 50);
    expect(res.total_paths).toBeLessThanOrEqual(body.max_paths ?? 100);
    expect(res.total_paths).toBeGreaterThan(0);
    expect(res.paths).toHaveLength(res.total_paths);
    expectWellFormed(res.paths, ids[0]!, body.max_depth ?? 2);
    for (const path of res.paths) for (const node of path.nodes) expect(res.unique_nodes).toContain(node);
  }
  const wide = await traverse(ws, ids[0]!, { max_depth: 5, max_nodes: 1000, max_paths: 1000 }, memd);
  expect(wide.total_paths).toBe(1000);
}

describe('GET /v1/memories/{id}/trace', () => {
  it('shows a fact’s source chain, its parent’s derived facts, relationship categories and associations', async () => {
    const ws = await graphWorkspace(memd, 'trace');
    const [parentId, otherId] = await remember(memd, ws, [
      'Jordan moved to Lisbon in March. Jordan works as a nurse at the city hospital. The commute takes twenty minutes.',
      'Lisbon has steep hills and yellow trams',
    ]);
    await server.drainTasks();
    await link(memd, ws, otherId!, parentId!, 'occurs_in', 0.7);
    const parent = await memd.memories.trace(parentId!, { workspace_id: ws });
    expect(parent.memory.id).toBe(parentId);
    expect(parent.source).toMatchObject({ kind: 'direct', source_memory_id: null });
    expect(parent.source_chain).toEqual([]);
    expect(parent.derived_memory_ids).toHaveLength(3);
    expect(parent.categories).toEqual([
      { category: 'hierarchical', count: 3, relationships: { part_of: 3 } },
      { category: 'context', count: 1, relationships: { occurs_in: 1 } },
    ]);
    expect(parent.association_chain[0]).toMatchObject({
      direction: 'incoming',
      category: 'hierarchical',
      association: { relationship: 'part_of', strength: 1 },
    });
    expect(parent.association_chain.find((a) => a.category === 'context')!.memory).toMatchObject({
      id: otherId,
      status: 'active',
    });
    expect(parent.articles).toEqual([]);

    const fact = await memd.memories.trace(parent.derived_memory_ids[0]!, { workspace_id: ws });
    expect(fact.source).toMatchObject({ kind: 'derived', source_memory_id: parentId, source_scope: 'fact' });
    expect(fact.source_chain).toEqual([expect.objectContaining({ id: parentId, via: 'source_memory_id' })]);
    expect((await failureOf(memd.memories.trace('mem_0000000000000000', { workspace_id: ws }))).status).toBe(404);
  });

  it('walks part_of edges when there is no source_memory_id, and stops at a cycle', async () => {
    const ws = await graphWorkspace(memd, 'trace-part-of');
    const [chapter, book, shelf] = await remember(memd, ws, texts(3, 'library'));
    await link(memd, ws, chapter!, book!, 'part_of', 1);
    await link(memd, ws, book!, shelf!, 'part_of', 1);
    await link(memd, ws, shelf!, chapter!, 'part_of', 1);
    const trace = await memd.memories.trace(chapter!, { workspace_id: ws });
    expect(trace.source_chain.map((m) => [m.id, m.via])).toEqual([
      [book, 'part_of'],
      [shelf, 'part_of'],
    ]);
  });
});
