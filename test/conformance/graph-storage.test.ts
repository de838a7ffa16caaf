import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { KnowledgebaseArticle } from '../../src/storage/types.js';
import { association, axisVector, memory, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const AT = '2026-01-01T00:00:00.000Z';

function article(workspaceId: string, id: string, overrides: Partial<KnowledgebaseArticle> = {}): KnowledgebaseArticle {
  return {
    workspace_id: workspaceId,
    id,
    kind: 'topic',
    title: `About ${id}`,
    summary: 'summary',
    body: '# body',
    memory_ids: ['mem_1', 'mem_2'],
    links: [],
    community_id: 0,
    signature: 'sig',
    generator: 'extractive',
    metadata: { key_terms: ['x'] },
    position: 1,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}

describe.each(storageBackends())('graph and knowledgebase storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(8);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  it('lists memories as graph nodes, newest first, filtered, without content', async () => {
    const s = await fresh();
    const rows = [0, 1, 2, 3].map((i) =>
      memory('ws_a', `node ${i}`, axisVector(8, i), {
        created_at: `2026-01-0${i + 1}T00:00:00.000Z`,
        type: i === 3 ? 'episodic' : 'semantic',
        tags: ['t'],
        abstract: `abs ${i}`,
        context_id: i === 0 ? 'other' : '_default',
      }),
    );
    await s.memories.insert([...rows, memory('ws_b', 'elsewhere', axisVector(8, 0))]);
    await s.memories.update('ws_a', rows[2]!.id, { status: 'deleted' });
    const nodes = await s.memories.listNodes('ws_a', {}, 10);
    expect(nodes.map((n) => n.id)).toEqual([rows[3]!.id, rows[1]!.id, rows[0]!.id]);
    expect(nodes[0]).toEqual({
      id: rows[3]!.id,
      type: 'episodic',
      subtype: null,
      importance: 0.5,
      tags: ['t'],
      context_id: '_default',
      abstract: 'abs 3',
      content_hash: 'hash:node 3',
      created_at: '2026-01-04T00:00:00.000Z',
      updated_at: rows[3]!.updated_at,
    });
    expect((await s.memories.listNodes('ws_a', {}, 2)).map((n) => n.id)).toEqual([rows[3]!.id, rows[1]!.id]);
    expect(
      (await s.memories.listNodes('ws_a', { types: ['semantic'], contextId: '_default' }, 10)).map((n) => n.id),
    ).toEqual([rows[1]!.id]);
    await s.close();
  });

  it('pages through a workspace’s edges in id order, as light graph edges', async () => {
    const s = await fresh();
    const [a, b, c] = [0, 1, 2].map((i) => memory('ws_a', `edge node ${i}`, axisVector(8, i)));
    const other = memory('ws_b', 'other', axisVector(8, 3));
    await s.memories.insert([a!, b!, c!, other]);
    const edges = [
      association('ws_a', a!.id, b!.id, 'causes', 0.7),
      association('ws_a', b!.id, c!.id),
      association('ws_a', c!.id, a!.id, 'part_of', 1),
    ];
    for (const edge of [...edges, association('ws_b', other.id, other.id)]) await s.associations.upsert(edge);
    const byId = [...edges].sort((x, y) => x.id.localeCompare(y.id));
    const first = await s.associations.scanEdges('ws_a', null, 2);
    expect(first).toEqual(
      byId.slice(0, 2).map(({ id, source_id, target_id, relationship, strength }) => ({
        id,
        source_id,
        target_id,
        relationship,
        strength,
      })),
    );
    expect((await s.associations.scanEdges('ws_a', first[1]!.id, 2)).map((e) => e.id)).toEqual([byId[2]!.id]);
    expect((await s.associations.scan('ws_a', null, 10)).map((e) => e.id)).toEqual(byId.map((e) => e.id));
    await s.close();
  });

  it('reads the edges of memories with the rows at their far ends, through the filter, in both directions', async () => {
    const s = await fresh();
    const [hub, near, archived, fact, typed] = [0, 1, 2, 3, 4].map((i) =>
      memory('ws_a', `neighbour ${i}`, axisVector(8, i), i === 3 ? { source_scope: 'fact' } : {}),
    );
    await s.memories.insert([hub!, near!, archived!, fact!, typed!]);
    await s.memories.update('ws_a', archived!.id, { status: 'archived' });
    const out = association('ws_a', hub!.id, near!.id, 'causes', 0.9);
    const into = association('ws_a', typed!.id, hub!.id, 'references', 0.4);
    const edges = [
      out,
      into,
      association('ws_a', hub!.id, archived!.id, 'causes', 0.8),
      association('ws_a', hub!.id, fact!.id, 'causes', 0.7),
      association('ws_a', hub!.id, typed!.id, 'part_of', 1),
    ];
    for (const edge of edges) await s.associations.upsert(edge);

    const rows = await s.associations.neighbourRows('ws_a', [hub!.id], {
      excludeRelationships: ['part_of'],
      filter: { statuses: ['active', 'archived'], excludeSourceScopes: ['fact'] },
    });
    // The archived end is left out although the filter allows it (an edge's far end is active), the fact by the
    // filter, the part_of edge by relationship; the edge is the edge (its own id), the row the far end's.
    const asEdge = ({ id, source_id, target_id, relationship, strength }: typeof out) => ({
      id,
      source_id,
      target_id,
      relationship,
      strength,
    });
    expect(
      rows
        .map((r) => ({ near: r.near, edge: r.edge, far: r.memory.id, content: r.memory.content }))
        .sort((a, b) => b.edge.strength - a.edge.strength),
    ).toEqual([
      { near: hub!.id, edge: asEdge(out), far: near!.id, content: 'neighbour 1' },
      { near: hub!.id, edge: asEdge(into), far: typed!.id, content: 'neighbour 4' },
    ]);
    // Nothing but the memory's ranking columns comes back as the memory.
    expect(Object.keys(rows[0]!.memory).sort()).toEqual([
      'content',
      'context_id',
      'created_at',
      'id',
      'mentions',
      'occurred_at',
      'seq',
      'session_id',
      'source_memory_id',
      'source_scope',
      'subject_id',
    ]);
    expect(await s.associations.neighbourRows('ws_b', [hub!.id], { filter: {} })).toEqual([]);
    await s.close();
  });

  it('stores, replaces and lists articles in position order, per workspace, with paging', async () => {
    const s = await fresh();
    const kb = s.knowledgebase;
    await kb.putArticle(
      article('ws_a', 'index', {
        kind: 'index',
        position: 0,
        community_id: null,
        links: [{ article_id: 'topics/b', title: 'B', weight: 2 }],
      }),
    );
    await kb.putArticle(article('ws_a', 'topics/b', { position: 2 }));
    await kb.putArticle(article('ws_a', 'topics/a', { position: 1 }));
    await kb.putArticle(article('ws_b', 'topics/other'));
    expect((await kb.listArticles('ws_a', { limit: 10, offset: 0 })).map((a) => a.id)).toEqual([
      'index',
      'topics/a',
      'topics/b',
    ]);
    expect((await kb.listArticles('ws_a', { limit: 1, offset: 1 })).map((a) => a.id)).toEqual(['topics/a']);
    expect((await kb.listArticles('ws_a', { limit: 10, offset: 0, kind: 'topic' })).map((a) => a.id)).toEqual([
      'topics/a',
      'topics/b',
    ]);
    expect(await kb.countArticles('ws_a')).toBe(3);
    expect(await kb.countArticles('ws_a', 'index')).toBe(1);
    expect(await kb.getArticle('ws_a', 'index')).toEqual(
      article('ws_a', 'index', {
        kind: 'index',
        position: 0,
        community_id: null,
        links: [{ article_id: 'topics/b', title: 'B', weight: 2 }],
      }),
    );
    expect(await kb.getArticle('ws_b', 'topics/a')).toBeNull();

    await kb.putArticle(
      article('ws_a', 'topics/a', { title: 'Renamed', memory_ids: ['mem_3'], updated_at: '2026-02-01T00:00:00.000Z' }),
    );
    expect(await kb.getArticle('ws_a', 'topics/a')).toMatchObject({
      title: 'Renamed',
      memory_ids: ['mem_3'],
      created_at: AT,
      updated_at: '2026-02-01T00:00:00.000Z',
    });
    await s.close();
  });

  it('knows which articles cite a memory, and forgets deleted and rewritten ones', async () => {
    const s = await fresh();
    const kb = s.knowledgebase;
    await kb.putArticle(article('ws_a', 'topics/a', { memory_ids: ['mem_1', 'mem_2'], position: 1 }));
    await kb.putArticle(article('ws_a', 'topics/b', { memory_ids: ['mem_2'], position: 2 }));
    await kb.putArticle(article('ws_b', 'topics/c', { memory_ids: ['mem_2'] }));
    expect((await kb.articlesCiting('ws_a', 'mem_2')).map((a) => a.id)).toEqual(['topics/a', 'topics/b']);
    await kb.putArticle(article('ws_a', 'topics/a', { memory_ids: ['mem_1'], position: 1 }));
    expect((await kb.articlesCiting('ws_a', 'mem_2')).map((a) => a.id)).toEqual(['topics/b']);
    expect(await kb.deleteArticles('ws_a', ['topics/b', 'nope'])).toBe(1);
    expect(await kb.articlesCiting('ws_a', 'mem_2')).toEqual([]);
    expect((await kb.articlesCiting('ws_a', 'mem_1'))[0]).toEqual({
      id: 'topics/a',
      title: 'About topics/a',
      kind: 'topic',
    });
    await s.close();
  });

  it('stores metadata and jobs, and drops everything with the workspace', async () => {
    const s = await fresh();
    const kb = s.knowledgebase;
    expect(await kb.getMeta('ws_a')).toBeNull();
    const meta = {
      workspace_id: 'ws_a',
      generated_at: AT,
      context_id: null,
      since: null,
      generator: 'extractive',
      stats: { article_count: 1 },
      created_at: AT,
      updated_at: AT,
    };
    await kb.putMeta(meta);
    await kb.putMeta({
      ...meta,
      generated_at: '2026-03-01T00:00:00.000Z',
      since: '2025-12-01T00:00:00.000Z',
      stats: { article_count: 2 },
      updated_at: '2026-03-01T00:00:00.000Z',
    });
    expect(await kb.getMeta('ws_a')).toEqual({
      ...meta,
      generated_at: '2026-03-01T00:00:00.000Z',
      since: '2025-12-01T00:00:00.000Z',
      stats: { article_count: 2 },
      updated_at: '2026-03-01T00:00:00.000Z',
    });

    const job = {
      id: 'job_1',
      workspace_id: 'ws_a',
      status: 'queued' as const,
      options: { force: true },
      result: null,
      error: null,
      created_at: AT,
      updated_at: AT,
    };
    await kb.createJob(job);
    expect(await kb.getJob('ws_a', 'job_1')).toEqual(job);
    expect(await kb.getJob('ws_b', 'job_1')).toBeNull();
    expect(
      await kb.updateJob('job_1', {
        status: 'succeeded',
        result: { created: 3 },
        updated_at: '2026-01-02T00:00:00.000Z',
      }),
    ).toMatchObject({ status: 'succeeded', result: { created: 3 }, error: null });
    expect(await kb.updateJob('nope', { status: 'failed' })).toBeNull();

    await kb.putArticle(article('ws_a', 'topics/a'));
    await s.workspaces.delete('ws_a');
    expect(await kb.getMeta('ws_a')).toBeNull();
    expect(await kb.getJob('ws_a', 'job_1')).toBeNull();
    expect(await kb.countArticles('ws_a')).toBe(0);
    expect(await kb.articlesCiting('ws_a', 'mem_1')).toEqual([]);
    await s.close();
  });
});
