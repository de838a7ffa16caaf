import { describe, expect, it } from 'vitest';
import { ASSOCIATION_FIELDS, expectFields, MEMORY_FIELDS } from './fields.js';
import { useClientServer } from './server.js';

/**
 * The memory calls of the MemoryLayer TypeScript SDK (v0.0.6), each as the SDK sends it: its default fields filled
 * in, `workspace_id` from the client's configuration, X-Workspace-ID on every call, in a workspace never created.
 */
describe('SDK: memories, recall, reflect, associations, batch', () => {
  const t = useClientServer({ workspaceId: 'sdk-memories' });

  const remember = async (content: string, tags: string[] = []) => {
    // remember(content, { tags })
    const res = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories',
      body: { content, workspace_id: 'sdk-memories', importance: 0.5, tags, metadata: {}, associations: [] },
    });
    expect(res.status, res.errorMessage).toBe(201);
    expectFields(res.body.memory, MEMORY_FIELDS, 'memory');
    return res.body.memory;
  };

  it('remember, recall and reflect in a workspace named for the first time', async () => {
    const memory = await remember('The staging database listens on port 5433.', ['db']);
    expect(memory).toMatchObject({ workspace_id: 'sdk-memories', tags: ['db'], importance: 0.5 });
    await remember('Deploys to production happen on Tuesdays.');

    // recall(query) with its defaults: empty filters, limit 10, no conversation context
    const recalled = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories/recall',
      body: {
        query: 'Which port does the staging database use?',
        workspace_id: 'sdk-memories',
        types: [],
        subtypes: [],
        tags: [],
        limit: 10,
        context: [],
      },
    });
    expect(recalled.status, recalled.errorMessage).toBe(200);
    expectFields(
      recalled.body,
      ['memories', 'mode_used', 'search_latency_ms', 'total_count', 'query_tokens'],
      'recall result',
    );
    expect(recalled.body.memories[0].id).toBe(memory.id);
    expectFields(recalled.body.memories[0], [...MEMORY_FIELDS, 'relevance_score', 'boosted_score'], 'recalled memory');

    // recall with every option the SDK maps
    const full = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories/recall',
      body: {
        query: 'database port',
        workspace_id: 'sdk-memories',
        types: ['semantic'],
        subtypes: [],
        tags: ['db'],
        mode: 'rag',
        tolerance: 'loose',
        limit: 5,
        min_relevance: 0,
        recency_weight: 0.1,
        include_associations: true,
        traverse_depth: 1,
        max_expansion: 10,
        created_after: '2000-01-01T00:00:00.000Z',
        created_before: '2999-01-01T00:00:00.000Z',
        context: [{ role: 'user', content: 'we were talking about staging' }],
        rag_threshold: 0.8,
        detail_level: 'overview',
      },
    });
    expect(full.status, full.errorMessage).toBe(200);
    expect(full.body.memories.map((m: { id: string }) => m.id)).toEqual([memory.id]);

    // reflect(query) with its defaults
    const reflected = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories/reflect',
      body: {
        query: 'What do we know about the staging database?',
        workspace_id: 'sdk-memories',
        include_sources: true,
        depth: 2,
        types: [],
        subtypes: [],
        tags: [],
      },
    });
    expect(reflected.status, reflected.errorMessage).toBe(200);
    expectFields(reflected.body, ['reflection', 'source_memories', 'tokens_processed', 'confidence'], 'reflect result');
    expect(reflected.body.source_memories).toContain(memory.id);
  });

  it('getMemory, updateMemory and decay by id, with only X-Workspace-ID naming the workspace', async () => {
    const memory = await remember('The VPN gateway is in Frankfurt.');
    const got = await t.sdk.call({ method: 'GET', path: `/v1/memories/${memory.id}` });
    expect(got.status, got.errorMessage).toBe(200);
    expectFields(got.body.memory, MEMORY_FIELDS, 'memory');

    // updateMemory(id, { content, importance, tags }): the updates object is the body
    const updated = await t.sdk.call({
      method: 'PUT',
      path: `/v1/memories/${memory.id}`,
      body: { content: 'The VPN gateway moved to Amsterdam.', importance: 0.9, tags: ['network'] },
    });
    expect(updated.status, updated.errorMessage).toBe(200);
    expect(updated.body.memory).toMatchObject({
      id: memory.id,
      content: 'The VPN gateway moved to Amsterdam.',
      importance: 0.9,
      tags: ['network'],
    });

    // decay(id) with the default rate
    const decayed = await t.sdk.call({
      method: 'POST',
      path: `/v1/memories/${memory.id}/decay`,
      body: { decay_rate: 0.1 },
    });
    expect(decayed.status, decayed.errorMessage).toBe(200);
    expect(decayed.body.memory.importance).toBeCloseTo(0.8);
  });

  it('associate, createAssociation, getAssociations, traverseGraph and traceMemory', async () => {
    const [a, b, c] = [
      await remember('Outage: the cache filled up.'),
      await remember('Fix: the cache got an eviction policy.'),
      await remember('Eviction runs every minute.'),
    ];
    // associate(source, target, relationship) with the default strength
    const linked = await t.sdk.call({
      method: 'POST',
      path: `/v1/memories/${b.id}/associate`,
      body: { target_id: a.id, relationship: 'solves', strength: 0.5 },
    });
    expect(linked.status, linked.errorMessage).toBe(201);
    expectFields(
      linked.body.association,
      [...ASSOCIATION_FIELDS, 'workspace_id', 'metadata', 'created_at'],
      'association',
    );
    // createAssociation({ sourceId, targetId, relationship, strength })
    const created = await t.sdk.call({
      method: 'POST',
      path: `/v1/memories/${c.id}/associate`,
      body: { target_id: b.id, relationship: 'part_of', strength: 0.9, metadata: {} },
    });
    expect(created.status, created.errorMessage).toBe(201);

    const listed = await t.sdk.call({ method: 'GET', path: `/v1/memories/${b.id}/associations?direction=both` });
    expect(listed.status, listed.errorMessage).toBe(200);
    expect(listed.body.associations.map((x: { id: string }) => x.id).sort()).toEqual(
      [linked.body.association.id, created.body.association.id].sort(),
    );

    // traverseGraph(start) with the SDK's defaults: depth 3, both ways, 100 paths, 50 nodes
    const traversed = await t.sdk.call({
      method: 'POST',
      path: `/v1/memories/${c.id}/traverse`,
      body: { max_depth: 3, direction: 'both', min_strength: 0, max_paths: 100, max_nodes: 50 },
    });
    expect(traversed.status, traversed.errorMessage).toBe(200);
    expectFields(traversed.body, ['paths', 'total_paths', 'unique_nodes', 'query_latency_ms'], 'traversal');
    const toA = traversed.body.paths.find((p: { nodes: string[] }) => p.nodes.at(-1) === a.id);
    expectFields(toA, ['nodes', 'edges', 'total_strength', 'depth'], 'path');
    expectFields(toA.edges[0], ASSOCIATION_FIELDS, 'path edge');
    // traverseGraph with the categories the SDK offers
    const byCategory = await t.sdk.call({
      method: 'POST',
      path: `/v1/memories/${b.id}/traverse`,
      body: {
        relationship_categories: ['solution'],
        max_depth: 3,
        direction: 'outgoing',
        min_strength: 0,
        max_paths: 100,
        max_nodes: 50,
      },
    });
    expect(byCategory.body.unique_nodes).toEqual([b.id, a.id]);

    const trace = await t.sdk.call({ method: 'GET', path: `/v1/memories/${c.id}/trace` });
    expect(trace.status, trace.errorMessage).toBe(200);
    expect(trace.body.memory.id).toBe(c.id);
  });

  it('batchMemories with the SDK’s operation shapes (action, nested memory and updates)', async () => {
    const existing = await remember('Old wording of the rollback procedure.');
    const doomed = await remember('A note to delete.');
    const res = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories/batch',
      body: {
        operations: [
          { action: 'create', memory: { content: 'Rollbacks take ten minutes.', importance: 0.7, tags: ['ops'] } },
          { action: 'update', memory_id: existing.id, updates: { content: 'New wording of the rollback procedure.' } },
          { action: 'delete', memory_id: doomed.id },
        ],
      },
    });
    expect(res.status, res.errorMessage).toBe(200);
    expectFields(res.body, ['results', 'total_processed', 'successful', 'failed'], 'batch result');
    expect(res.body).toMatchObject({ total_processed: 3, successful: 3, failed: 0 });
    expect(res.body.results.map((r: { index: number; success: boolean }) => [r.index, r.success])).toEqual([
      [0, true],
      [1, true],
      [2, true],
    ]);
    expect(res.body.results[0].memory).toMatchObject({
      content: 'Rollbacks take ten minutes.',
      workspace_id: 'sdk-memories',
    });
    expect(res.body.results[1].memory.content).toBe('New wording of the rollback procedure.');
  });

  it('reads errors as message and details', async () => {
    const missing = await t.sdk.call({ method: 'GET', path: '/v1/memories/mem_0000000000000000' });
    expect([missing.status, missing.errorMessage]).toEqual([404, "memory 'mem_0000000000000000' was not found"]);
    const invalid = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories',
      body: { content: '', workspace_id: 'sdk-memories', importance: 2, tags: [], metadata: {}, associations: [] },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.errorMessage).toEqual(expect.any(String));
    expect(invalid.body.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(['/body/importance']),
    );
    // A parameter the query does not know is dropped; a field the body does not know is refused, and nothing is stored.
    const before = (await t.sdk.call({ method: 'GET', path: '/v1/memories?workspace_id=sdk-memories&limit=100' })).body
      .memories.length;
    const unknownField = await t.sdk.call({
      method: 'POST',
      path: '/v1/memories?page=2',
      body: { content: 'Typo in a field name.', workspace_id: 'sdk-memories', importanse: 0.9 },
    });
    expect(unknownField.status).toBe(422);
    expect(JSON.stringify(unknownField.body.details)).toContain('importanse');
    expect(
      (await t.sdk.call({ method: 'GET', path: '/v1/memories?workspace_id=sdk-memories&limit=100&page=2' })).body
        .memories,
    ).toHaveLength(before);
  });
});
