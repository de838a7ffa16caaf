import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { link, remember } from '../support/graph.js';
import { seedTopics } from '../support/knowledgebase.js';
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

interface Article {
  id: string;
  article_type: string;
  title: string;
  summary: string;
  content: string;
  memory_ids: string[];
  links: Array<{ article_id: string; title: string; weight: number }>;
  community_id: number | null;
  generator: string;
  metadata: Record<string, unknown>;
  updated_at: string;
}

const generate = async (ws: string, body: Record<string, unknown> = {}) => {
  const res = await api.post('/v1/knowledgebase/generate', { workspace_id: ws, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const article = async (ws: string, id: string): Promise<Article> => {
  const res = await api.get(`/v1/knowledgebase/articles/${id}?workspace_id=${ws}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const topicOf = (topics: Article[], memoryId: string) => topics.find((t) => t.memory_ids.includes(memoryId))!;
const topics = async (ws: string): Promise<Article[]> =>
  (await api.get(`/v1/knowledgebase/articles?workspace_id=${ws}&article_type=topic`)).body.articles;

describe('knowledgebase generation (extractive, no language model)', () => {
  it('writes one article per community and an index; articles are read by path-style id', async () => {
    const seed = await seedTopics(memd, 'kb-extractive');
    expect((await api.get(`/v1/knowledgebase?workspace_id=${seed.ws}`)).status).toBe(404);
    const report = await generate(seed.ws);
    expect(report).toMatchObject({
      workspace_id: seed.ws,
      article_count: 4,
      community_count: 3,
      generator: 'extractive',
      stats: { unassigned_memories: 2, node_count: 14 },
    });
    expect(report.changes.created).toHaveLength(3);
    expect(report.changes.created.every((id: string) => id.startsWith('topics/'))).toBe(true);

    const all = await topics(seed.ws);
    const db = topicOf(all, seed.db[0]!);
    expect([...db.memory_ids].sort()).toEqual([...seed.db].sort());
    expect(db.title).toContain('PostgreSQL');
    expect(db.id).toMatch(/^topics\/postgresql/);
    expect(db.metadata).toMatchObject({
      entities: ['PostgreSQL'],
      key_terms: expect.arrayContaining(['orders']),
      cohesion: 1,
    });
    const read = await article(seed.ws, db.id);
    expect(read).toMatchObject({
      id: db.id,
      article_type: 'topic',
      generator: 'extractive',
      memory_ids: db.memory_ids,
    });
    expect(read.content).toMatch(/^# PostgreSQL/);
    expect(read.content).toContain('## Key points');
    for (const id of seed.db) expect(read.content).toContain(`(/v1/memories/${id})`);
    expect(read.summary.length).toBeGreaterThan(0);
    expect(topicOf(all, seed.garden[0]!).title.toLowerCase()).toContain('tomatoes');
    expect(topicOf(all, seed.bread[0]!).title.toLowerCase()).toContain('sourdough');

    const info = (await api.get(`/v1/knowledgebase?workspace_id=${seed.ws}`)).body;
    expect(info).toMatchObject({ article_count: 4, community_count: 3, index: { id: 'index', article_type: 'index' } });
    for (const topic of all) expect(info.index.content).toContain(`[${topic.title}](${topic.id})`);
    expect((await api.get(`/v1/knowledgebase/articles/index?workspace_id=${seed.ws}`)).body.id).toBe('index');
    expect((await api.get(`/v1/knowledgebase/articles/topics/nope?workspace_id=${seed.ws}`)).status).toBe(404);
  });

  it('links topics joined by associations, and serves the article graph, communities, pages and an export', async () => {
    const seed = await seedTopics(memd, 'kb-links');
    await generate(seed.ws);
    const all = await topics(seed.ws);
    const garden = topicOf(all, seed.garden[0]!);
    const bread = topicOf(all, seed.bread[0]!);
    const db = topicOf(all, seed.db[0]!);
    expect(garden.links).toEqual([{ article_id: bread.id, title: bread.title, weight: 1 }]);
    expect(garden.content).toContain(`## Related\n\n- [${bread.title}](${bread.id}) (1 association)`);
    expect(db.links).toEqual([]);

    const graph = (await api.get(`/v1/knowledgebase/graph?workspace_id=${seed.ws}&include_rpg=true`)).body;
    expect(graph.includes_rpg).toBe(false);
    expect(graph.nodes).toHaveLength(4);
    expect(graph.links).toEqual([
      { source: [garden.id, bread.id].sort()[0], target: [garden.id, bread.id].sort()[1], weight: 1 },
    ]);

    const community = (await api.get(`/v1/knowledgebase/graph/communities/${db.community_id}?workspace_id=${seed.ws}`))
      .body;
    expect(community).toMatchObject({ id: db.community_id, article_id: db.id, label: db.title, size: 5, cohesion: 1 });
    expect([...community.memory_ids].sort()).toEqual([...seed.db].sort());
    expect((await api.get(`/v1/knowledgebase/graph/communities/99?workspace_id=${seed.ws}`)).status).toBe(404);
    for (const unknown of ['community-1', 'abc', '-1', '1.5']) {
      const res = await api.get(`/v1/knowledgebase/graph/communities/${unknown}?workspace_id=${seed.ws}`);
      expect([res.status, res.body.code], unknown).toEqual([404, 'not_found']);
    }

    const first = (await api.get(`/v1/knowledgebase/articles?workspace_id=${seed.ws}&limit=2`)).body;
    expect(first).toMatchObject({ total: 4, limit: 2, offset: 0 });
    expect(first.articles.map((a: Article) => a.id)).toEqual(['index', db.id]);
    const second = (await api.get(`/v1/knowledgebase/articles?workspace_id=${seed.ws}&limit=2&offset=2`)).body;
    expect(second.articles).toHaveLength(2);
    expect(
      (await api.get(`/v1/knowledgebase/articles?workspace_id=${seed.ws}&article_type=community`)).body.total,
    ).toBe(3);

    const exported = (await api.get(`/v1/knowledgebase/export?workspace_id=${seed.ws}`)).body;
    expect(exported).toMatchObject({ version: '1.0', knowledgebase: { workspace_id: seed.ws, article_count: 4 } });
    expect(exported.articles.map((a: Article) => a.id).sort()).toEqual(['index', ...all.map((t) => t.id)].sort());

    // The provenance trace names the article that cites a memory.
    const trace = (await api.get(`/v1/memories/${seed.db[2]}/trace?workspace_id=${seed.ws}`)).body;
    expect(trace.articles).toEqual([{ id: db.id, title: db.title, kind: 'topic' }]);
  });

  it('regenerates only what changed, everything with force, and removes topics whose memories are gone', async () => {
    const seed = await seedTopics(memd, 'kb-incremental');
    await generate(seed.ws);
    const before = await topics(seed.ws);
    const [db, garden, bread] = [
      topicOf(before, seed.db[0]!),
      topicOf(before, seed.garden[0]!),
      topicOf(before, seed.bread[0]!),
    ];

    const [fresh] = await remember(memd, seed.ws, ['Stake the tomatoes before they reach half a metre']);
    await link(memd, seed.ws, fresh!, seed.garden[0]!, 'related_to', 0.9);
    await link(memd, seed.ws, fresh!, seed.garden[1]!, 'related_to', 0.9);
    const again = await generate(seed.ws);
    expect(again.changes).toEqual({ created: [], updated: [garden.id], unchanged: [db.id, bread.id], removed: [] });
    const after = await topics(seed.ws);
    expect(topicOf(after, fresh!).id).toBe(garden.id);
    expect((await article(seed.ws, garden.id)).content).toContain(fresh!);
    expect(await article(seed.ws, db.id)).toMatchObject({ updated_at: db.updated_at, content: db.content });

    const forced = await generate(seed.ws, { force: true });
    expect(forced.changes.updated.sort()).toEqual([db.id, garden.id, bread.id].sort());
    expect((await generate(seed.ws, { regenerate: true })).changes.updated).toHaveLength(3);

    for (const id of seed.bread)
      expect((await api.delete(`/v1/memories/${id}?workspace_id=${seed.ws}&hard=true`)).status).toBe(204);
    const pruned = await generate(seed.ws);
    expect(pruned.changes).toMatchObject({ created: [], updated: [], removed: [bread.id] });
    expect((await api.get(`/v1/knowledgebase/articles/${bread.id}?workspace_id=${seed.ws}`)).status).toBe(404);
    expect((await article(seed.ws, garden.id)).links).toEqual([]);
  });

  it('generates asynchronously as a durable job the caller polls', async () => {
    const seed = await seedTopics(memd, 'kb-async');
    const queued = await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws, async: true });
    expect(queued.status).toBe(202);
    expect(queued.body.job).toMatchObject({ id: expect.stringMatching(/^job_/), status: 'queued', result: null });
    const poll = () => api.get(`/v1/knowledgebase/jobs/${queued.body.job.id}?workspace_id=${seed.ws}`);
    expect((await poll()).body.job.status).toBe('queued');
    await server.drainTasks();
    const done = (await poll()).body.job;
    expect(done).toMatchObject({
      status: 'succeeded',
      error: null,
      result: { article_count: 4, changes: { created: expect.any(Array) } },
    });
    expect((await api.get(`/v1/knowledgebase?workspace_id=${seed.ws}`)).body.community_count).toBe(3);
    expect((await api.get(`/v1/knowledgebase/jobs/${queued.body.job.id}?workspace_id=kb-links`)).status).toBe(404);
    expect((await api.get(`/v1/knowledgebase/jobs/job_0000000000000000?workspace_id=${seed.ws}`)).status).toBe(404);
  });

  it('scopes by context and time, validates its body, and keeps workspaces apart', async () => {
    const seed = await seedTopics(memd, 'kb-scope');
    expect((await generate(seed.ws, { context_id: 'elsewhere' })).community_count).toBe(0);
    expect((await generate(seed.ws, { since: '2999-01-01T00:00:00Z' })).stats.node_count).toBe(0);
    const full = await generate(seed.ws, {
      min_community_size: 4,
      max_god_nodes: 20,
      include_rpg: false,
      max_communities: 50,
    });
    expect(full.community_count).toBe(2);
    expect((await generate(seed.ws, { max_communities: 1 })).community_count).toBe(1);
    expect((await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws, force: 'yes' })).status).toBe(422);
    expect((await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws, since: 'last week' })).status).toBe(
      422,
    );
    expect((await api.post('/v1/knowledgebase/generate', { workspace_id: seed.ws, colour: 'red' })).status).toBe(422);
    // A workspace named for the first time is created: an empty knowledgebase.
    expect(
      (await api.post('/v1/knowledgebase/generate', { workspace_id: 'no-such-workspace' })).body.community_count,
    ).toBe(0);

    await api.post('/v1/workspaces', { id: 'kb-scope-other', name: 'other' });
    expect((await api.get('/v1/knowledgebase?workspace_id=kb-scope-other')).status).toBe(404);
    expect((await api.get('/v1/knowledgebase/articles?workspace_id=kb-scope-other')).body.total).toBe(0);
    const some = (await topics(seed.ws))[0]!;
    expect((await api.get(`/v1/knowledgebase/articles/${some.id}?workspace_id=kb-scope-other`)).status).toBe(404);
    expect((await api.get(`/v1/knowledgebase/articles/${some.id}`, { 'X-Workspace-ID': seed.ws })).status).toBe(200);
  });
});
