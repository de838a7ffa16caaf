import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

const children = async (parentId: string) =>
  (await api.get(`/v1/memories?limit=100`)).body.memories.filter(
    (m: { source_memory_id: string | null }) => m.source_memory_id === parentId,
  );

describe('background enrichment (durable task queue)', () => {
  it('decomposes multi-sentence content into fact memories linked part_of to their parent, once', async () => {
    const parent = (
      await api.post('/v1/memories', {
        content:
          'Jordan moved to Lisbon in March. Jordan works as a nurse at the city hospital. The commute takes twenty minutes.',
        tags: ['jordan'],
        subject_id: 'jordan',
      })
    ).body.memory;
    expect(await children(parent.id)).toEqual([]);
    expect(await server.drainTasks()).toBeGreaterThan(0);
    const facts = await children(parent.id);
    expect(facts.map((f: { content: string }) => f.content).sort()).toEqual([
      'Jordan moved to Lisbon in March.',
      'Jordan works as a nurse at the city hospital.',
      'The commute takes twenty minutes.',
    ]);
    expect(facts[0]).toMatchObject({ source_scope: 'fact', subject_id: 'jordan', tags: ['jordan'] });
    const edges = (await api.get(`/v1/memories/${parent.id}/associations?direction=incoming&relationships=part_of`))
      .body.associations as Array<{ source_id: string; strength: number }>;
    expect(edges.map((e) => e.source_id).sort()).toEqual(facts.map((f: { id: string }) => f.id).sort());
    expect(edges.map((e) => e.strength)).toEqual([1, 1, 1]);

    // Re-running the task (as after a crash) derives nothing twice.
    await server.app.services.storage.tasks.enqueue([
      {
        kind: 'memory.enrich',
        workspaceId: '_default',
        payload: { memory_id: parent.id, auto_classified: true },
        runAt: new Date().toISOString(),
      },
    ]);
    await server.drainTasks();
    expect(await children(parent.id)).toHaveLength(3);
  });

  it('keeps no facts of a text that changed while it was being enriched, and decomposes the new text', async () => {
    const before = 'Mira bakes bread on Sundays. Mira sells it at the market. The stall opens at eight.';
    const after = 'Mira repairs bicycles on Mondays. Mira rents a workshop downtown. The shop closes at six.';
    const parent = (await api.post('/v1/memories', { content: before, workspace_id: 'enrich-race' })).body.memory;
    const { services } = server.app;
    // A run that read the memory, then another call changes its text before the run commits (as a node changing it
    // while a worker elsewhere enriches it): the run's facts are of a text the memory no longer holds.
    let changed = false;
    const giveWay = async () => {
      if (changed) return;
      changed = true;
      await services.memories.update('enrich-race', parent.id, { content: after });
    };
    const task = { payload: { memory_id: parent.id, auto_classified: true }, workspaceId: 'enrich-race' };
    await services.enricher.handleMany([task as never], giveWay);
    expect(changed).toBe(true);
    await server.drainTasks();
    const facts = (await api.get('/v1/memories?workspace_id=enrich-race&limit=100')).body.memories.filter(
      (m: { source_memory_id: string | null }) => m.source_memory_id === parent.id,
    );
    expect(facts.map((f: { content: string }) => f.content).sort()).toEqual([
      'Mira rents a workshop downtown.',
      'Mira repairs bicycles on Mondays.',
      'The shop closes at six.',
    ]);
  });

  it('does not decompose short or single-sentence memories', async () => {
    const short = (await api.post('/v1/memories', { content: 'Short one. Two.' })).body.memory;
    const single = (
      await api.post('/v1/memories', {
        content: 'A single long sentence that goes on for quite a while without ever stopping to take a breath at all',
      })
    ).body.memory;
    await server.drainTasks();
    expect(await children(short.id)).toEqual([]);
    expect(await children(single.id)).toEqual([]);
  });

  it('makes one fact of a sentence said twice, and no more than 500 of one memory', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'many sentences' })).body.workspace.id;
    const partOf = async (parentId: string) =>
      (
        await api.get(
          `/v1/memories/${parentId}/associations?workspace_id=${ws}&direction=incoming&relationships=part_of`,
        )
      ).body.associations as unknown[];
    const repeated = (
      await api.post('/v1/memories', {
        workspace_id: ws,
        content: 'The pump failed at dawn. The pump  failed at dawn. THE PUMP FAILED AT DAWN. The crew replaced it.',
      })
    ).body.memory;
    const sentences = Array.from({ length: 700 }, (_, i) => `Sensor ${i} reported a reading.`);
    const long = (await api.post('/v1/memories', { workspace_id: ws, content: sentences.join(' ') })).body.memory;
    await server.drainTasks();
    expect(await partOf(repeated.id)).toHaveLength(2);
    expect(await partOf(long.id)).toHaveLength(500);
  });

  it('links similar memories automatically with their similarity as strength', async () => {
    const ws = (await api.post('/v1/workspaces', { name: 'links' })).body.workspace.id;
    const first = (
      await api.post('/v1/memories', { workspace_id: ws, content: 'The payment service times out under heavy load' })
    ).body.memory;
    await api.post('/v1/memories', { workspace_id: ws, content: 'Gardening tips for tomatoes' });
    const second = (
      await api.post('/v1/memories', {
        workspace_id: ws,
        content: 'The payment service times out under load on Fridays',
      })
    ).body.memory;
    await server.drainTasks();
    const edges = (await api.get(`/v1/memories/${second.id}/associations?direction=outgoing&workspace_id=${ws}`)).body
      .associations as Array<{ target_id: string; relationship: string; strength: number; metadata: object }>;
    const link = edges.find((e) => e.target_id === first.id);
    expect(link).toBeDefined();
    expect(['similar_to', 'variant_of']).toContain(link!.relationship);
    expect(link!.metadata).toMatchObject({ auto_generated: true, similarity_score: link!.strength });
    expect(link!.strength).toBeGreaterThanOrEqual(0.6);
    expect(edges.every((e) => e.target_id !== second.id)).toBe(true);
  });

  it('removes a parent’s facts with it and soft-deletes them with it', async () => {
    const parent = (
      await api.post('/v1/memories', {
        content: 'Ana runs the Berlin marathon every single year. Ana trains six days a week in the months before it.',
      })
    ).body.memory;
    await server.drainTasks();
    const facts = await children(parent.id);
    expect(facts).toHaveLength(2);
    await api.delete(`/v1/memories/${parent.id}`);
    for (const fact of facts) expect((await api.get(`/v1/memories/${fact.id}`)).body.memory.status).toBe('deleted');
    await api.delete(`/v1/memories/${parent.id}?hard=true`);
    for (const fact of facts) expect((await api.get(`/v1/memories/${fact.id}`)).status).toBe(404);
  });
});
