import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import { WORKSPACE_BOOKKEEPING, WORKSPACE_CONTENT } from '../../src/storage/sql/workspaces.js';
import { association, axisVector, memory, NOW, seededVector, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const DIMS = 8;

/** A unit vector whose floats need every digit of their float32 (an axis vector survives any encoding). */
const unevenVector = (dimensions: number): Float32Array => {
  const vector = Float32Array.from({ length: dimensions }, (_, i) => Math.sin(i + 1) * 10 ** ((i % 5) - 2));
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
};

describe.each(storageBackends({ pglite: true }))('storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(options?: { annMinSize?: number }): Promise<SqlStorage> {
    const storage = await backend.open(DIMS, options);
    await storage.engine.warmUp(storage.sqlContext.db);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  describe('workspaces', () => {
    it('creates, ensures without overwriting, updates and lists', async () => {
      const s = await fresh();
      expect(await s.workspaces.create({ ...workspace('ws_a'), name: 'changed?' })).toBe(false);
      expect((await s.workspaces.get('ws_a'))?.name).toBe('ws_a');
      const updated = await s.workspaces.update('ws_a', {
        name: 'Alpha',
        settings: { x: 1 },
        updated_at: '2026-02-01T00:00:00.000Z',
      });
      expect(updated).toMatchObject({ name: 'Alpha', settings: { x: 1 }, updated_at: '2026-02-01T00:00:00.000Z' });
      expect((await s.workspaces.list()).map((w) => w.id)).toEqual(['ws_a', 'ws_b']);
      expect(await s.workspaces.update('nope', { name: 'x' })).toBeNull();
      await s.close();
    });

    it('delete removes everything in the workspace and nothing elsewhere', async () => {
      const s = await fresh();
      const a1 = memory('ws_a', 'alpha apples', axisVector(DIMS, 0));
      const a2 = memory('ws_a', 'alpha apricots', axisVector(DIMS, 1));
      const b1 = memory('ws_b', 'beta apples', axisVector(DIMS, 0));
      await s.memories.insert([a1, a2, b1]);
      await s.associations.upsert(association('ws_a', a1.id, a2.id));
      await s.contexts.create({
        id: 'c1',
        workspace_id: 'ws_a',
        name: 'c1',
        description: null,
        settings: {},
        created_at: a1.created_at,
        updated_at: a1.created_at,
      });
      await s.tasks.enqueue([{ kind: 'k', workspaceId: 'ws_a', payload: {}, runAt: a1.created_at }]);

      expect(await s.workspaces.delete('ws_a')).toBe(true);
      expect(await s.workspaces.get('ws_a')).toBeNull();
      expect(await s.memories.get('ws_a', a1.id)).toBeNull();
      expect(await s.contexts.list('ws_a')).toEqual([]);
      expect(await s.associations.count('ws_a')).toBe(0);
      expect((await s.tasks.counts('9999-12-31T00:00:00.000Z')).pending).toBe(0);
      expect(await s.memories.keywordSearch('ws_a', ['apples'], { k: 10 })).toEqual([]);
      expect(await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 10 })).toEqual([]);
      // The other workspace is untouched, keyword and vector entries included.
      expect((await s.memories.keywordSearch('ws_b', ['apples'], { k: 10 })).map((r) => r.id)).toEqual([b1.id]);
      expect((await s.memories.vectorSearch('ws_b', axisVector(DIMS, 0), { k: 10 })).map((r) => r.id)).toEqual([b1.id]);
      expect(await s.workspaces.delete('ws_a')).toBe(false);
      await s.close();
    });

    it('removes a provisional workspace a failed call created only while it holds nothing and has its creation stamp', async () => {
      const s = await fresh();
      const context = (workspaceId: string, id: string) => ({
        id,
        workspace_id: workspaceId,
        name: id,
        description: null,
        settings: {},
        created_at: NOW,
        updated_at: NOW,
      });
      const created = async (id: string) => {
        expect(await s.workspaces.create(workspace(id), { provisional: true })).toBe(true);
        expect(await s.workspaces.presence(id)).toBe('provisional');
        await s.contexts.create(context(id, '_default'));
      };
      const removeUnused = (id: string, at = NOW) =>
        s.transaction((tx) => tx.workspaces.deleteUnused(id, at, '_default'));
      expect(await s.workspaces.create(workspace('ws_a'), { provisional: true })).toBe(false);
      expect(await s.workspaces.presence('ws_a')).toBe('present');
      expect(await s.workspaces.presence('ws_none')).toBe('absent');
      await s.contexts.create(context('ws_a', '_default'));
      expect(await removeUnused('ws_a')).toBe(false);

      await created('ws_empty');
      expect(await removeUnused('ws_empty', '2026-01-01T00:00:00.001Z')).toBe(false);
      expect(await removeUnused('ws_empty')).toBe(true);
      expect(await s.workspaces.get('ws_empty')).toBeNull();
      expect(await s.contexts.list('ws_empty')).toEqual([]);
      expect(await removeUnused('ws_empty')).toBe(false);

      await created('ws_written');
      await s.memories.insert([memory('ws_written', 'written meanwhile', axisVector(DIMS, 0))]);
      await created('ws_context');
      await s.contexts.create(context('ws_context', 'c1'));
      await created('ws_task');
      await s.tasks.enqueue([{ kind: 'k', workspaceId: 'ws_task', payload: {}, runAt: NOW }]);
      await created('ws_adopted');
      expect(await s.workspaces.adopt('ws_adopted')).toBe(true);
      expect(await s.workspaces.presence('ws_adopted')).toBe('present');
      expect(await s.workspaces.adopt('ws_none')).toBe(false);
      for (const id of ['ws_written', 'ws_context', 'ws_task', 'ws_adopted']) {
        expect(await removeUnused(id)).toBe(false);
        expect((await s.workspaces.get(id))?.id).toBe(id);
      }
      await s.close();
    });

    it("knows which tables hold a workspace's content: every table with a workspace_id column", async () => {
      const s = await fresh();
      const tables = await s.sqlContext.db.introspection.getTables();
      const withWorkspace = new Set(
        tables.filter((t) => t.columns.some((c) => c.name === 'workspace_id')).map((t) => t.name),
      );
      expect(withWorkspace.size).toBeGreaterThan(20);
      expect([...withWorkspace].sort()).toEqual([...WORKSPACE_CONTENT, ...WORKSPACE_BOOKKEEPING].sort());
      await s.close();
    });

    it('counts memory versions per workspace, concurrent bumps included, and never restarts a re-created workspace', async () => {
      const s = await fresh();
      expect(await s.workspaces.memoryVersion('ws_a')).toBe(0);
      await s.workspaces.bumpMemoryVersion('ws_a');
      await Promise.all(Array.from({ length: 20 }, () => s.workspaces.bumpMemoryVersion('ws_a')));
      expect(await s.workspaces.memoryVersion('ws_a')).toBe(21);
      expect(await s.workspaces.memoryVersion('ws_b')).toBe(0);
      // Caches keyed by version must not mistake a new workspace of the same id for the old one.
      await s.workspaces.delete('ws_a');
      await s.workspaces.create(workspace('ws_a'));
      expect(await s.workspaces.memoryVersion('ws_a')).toBe(21);
      await s.workspaces.bumpMemoryVersion('ws_a');
      expect(await s.workspaces.memoryVersion('ws_a')).toBe(22);
      await s.close();
    });
  });

  describe('memories', () => {
    it('round-trips every field', async () => {
      const s = await fresh();
      const m = memory('ws_a', 'Ada prefers tea', unevenVector(DIMS), {
        tags: ['pref', 'drink'],
        metadata: { nested: { a: [1, 2] } },
        pinned: true,
        subtype: 'preference',
        occurred_at: '2025-12-24T10:00:00.000Z',
        subject_id: 'ada',
      });
      await s.memories.insert([m]);
      // The named days are the store's own (recall reads them as candidates' columns), not the API record's.
      const { embedding, mentions: _, ...record } = m;
      expect(await s.memories.get('ws_a', m.id)).toEqual(record);
      const embeddings = await s.memories.getEmbeddings('ws_a', [m.id]);
      // Every float as written: both engines store and return float32 (PostgreSQL in pgvector's binary form).
      expect(Array.from(embeddings.get(m.id)!)).toEqual(Array.from(embedding));
      expect(await s.memories.get('ws_b', m.id)).toBeNull();
      await s.close();
    });

    it('gets many in the order asked, leaving out the missing and other workspaces', async () => {
      const s = await fresh();
      const batch = Array.from({ length: 6 }, (_, i) => memory('ws_a', `note ${i}`, axisVector(DIMS, i)));
      const other = memory('ws_b', 'elsewhere', axisVector(DIMS, 0));
      await s.memories.insert([...batch, other]);
      const asked = [batch[4]!.id, 'mem_missing', batch[0]!.id, other.id, batch[5]!.id, batch[2]!.id];
      expect((await s.memories.getMany('ws_a', asked)).map((m) => m.id)).toEqual([
        batch[4]!.id,
        batch[0]!.id,
        batch[5]!.id,
        batch[2]!.id,
      ]);
      expect((await s.memories.getMany('ws_a', [...asked].reverse())).map((m) => m.id)).toEqual([
        batch[2]!.id,
        batch[5]!.id,
        batch[0]!.id,
        batch[4]!.id,
      ]);
      await s.close();
    });

    it('updates only the given fields and re-indexes changed content', async () => {
      const s = await fresh();
      const m = memory('ws_a', 'the server runs postgres', axisVector(DIMS, 0));
      await s.memories.insert([m]);
      const updated = await s.memories.update(
        'ws_a',
        m.id,
        { content: 'the server runs sqlite', importance: 0.9 },
        axisVector(DIMS, 3),
      );
      expect(updated).toMatchObject({ content: 'the server runs sqlite', importance: 0.9, tags: [], type: 'semantic' });
      expect(await s.memories.keywordSearch('ws_a', ['postgres'], { k: 5 })).toEqual([]);
      expect((await s.memories.keywordSearch('ws_a', ['sqlite'], { k: 5 })).map((r) => r.id)).toEqual([m.id]);
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 3), { k: 1 }))[0]).toMatchObject({
        id: m.id,
        score: expect.closeTo(1, 5),
      });
      expect(await s.memories.update('ws_b', m.id, { importance: 0.1 })).toBeNull();
      await s.close();
    });

    it('lists newest first with a cursor and filters, tags with AND on exact values', async () => {
      const s = await fresh();
      const rows = Array.from({ length: 7 }, (_, i) =>
        memory('ws_a', `note ${i}`, axisVector(DIMS, i), {
          created_at: `2026-01-0${i + 1}T00:00:00.000Z`,
          tags: i % 2 === 0 ? ['even', 'num'] : ['odd', 'num'],
          type: i < 3 ? 'episodic' : 'semantic',
        }),
      );
      rows.push(memory('ws_a', 'tagged evenness', axisVector(DIMS, 0), { tags: ['evenness'] }));
      await s.memories.insert(rows);
      const first = await s.memories.list('ws_a', { tags: ['num'] }, { limit: 3 });
      expect(first.items.map((m) => m.content)).toEqual(['note 6', 'note 5', 'note 4']);
      const second = await s.memories.list('ws_a', { tags: ['num'] }, { limit: 3, cursor: first.nextCursor! });
      expect(second.items.map((m) => m.content)).toEqual(['note 3', 'note 2', 'note 1']);
      const third = await s.memories.list('ws_a', { tags: ['num'] }, { limit: 3, cursor: second.nextCursor! });
      expect(third.items.map((m) => m.content)).toEqual(['note 0']);
      expect(third.nextCursor).toBeNull();
      expect(
        (await s.memories.list('ws_a', { tags: ['even', 'num'], types: ['episodic'] }, { limit: 10 })).items.map(
          (m) => m.content,
        ),
      ).toEqual(['note 2', 'note 0']);
      // 'even' must not match 'evenness'.
      expect(await s.memories.count('ws_a', { tags: ['even'] })).toBe(4);
      expect(
        await s.memories.count('ws_a', {
          createdAfter: '2026-01-03T00:00:00.000Z',
          createdBefore: '2026-01-05T00:00:00.000Z',
        }),
      ).toBe(3);
      await s.close();
    });

    it('finds by content hash, counts access and bumps importance except for pinned', async () => {
      const s = await fresh();
      const plain = memory('ws_a', 'plain', axisVector(DIMS, 0), { importance: 0.95 });
      const pinned = memory('ws_a', 'pinned', axisVector(DIMS, 1), { importance: 0.5, pinned: true });
      // The same text of another customer: both are found, the oldest first.
      const theirs = memory('ws_a', 'plain', axisVector(DIMS, 0), { subject_id: 'cust-b' });
      await s.memories.insert([plain, pinned]);
      await s.memories.insert([theirs]);
      const found = await s.memories.findByContentHashes('ws_a', ['hash:plain', 'hash:other', 'hash:plain']);
      expect([...found.entries()].map(([hash, ms]) => [hash, ms.map((m) => m.id)])).toEqual([
        ['hash:plain', [plain.id, theirs.id]],
      ]);
      await s.memories.update('ws_a', theirs.id, { status: 'deleted' });
      expect((await s.memories.findByContentHashes('ws_b', ['hash:plain'])).size).toBe(0);
      await s.memories.update('ws_a', plain.id, { status: 'deleted' });
      expect((await s.memories.findByContentHashes('ws_a', ['hash:plain'])).size).toBe(0);
      expect((await s.memories.findByContentHashes('ws_a', ['hash:plain'], ['deleted'])).size).toBe(1);
      await s.memories.update('ws_a', plain.id, { status: 'active' });
      await s.memories.recordAccess('ws_a', [plain.id, pinned.id], '2026-03-01T00:00:00.000Z');
      const [a, b] = await Promise.all([s.memories.get('ws_a', plain.id), s.memories.get('ws_a', pinned.id)]);
      expect(a).toMatchObject({ access_count: 1, importance: 1, last_accessed_at: '2026-03-01T00:00:00.000Z' });
      expect(b).toMatchObject({ access_count: 1, importance: 0.5 });
      await s.close();
    });

    it('names the memories that others are derived from, by status and in the workspace only', async () => {
      const s = await fresh();
      const [parent, other, bare] = ['parent', 'other', 'bare'].map((c, i) => memory('ws_a', c, axisVector(DIMS, i)));
      const fact = (of: string, content: string) =>
        memory('ws_a', content, axisVector(DIMS, 3), { source_memory_id: of, source_scope: 'fact' });
      const deletedFact = fact(other!.id, 'other, a fact');
      await s.memories.insert([parent!, other!, bare!, fact(parent!.id, 'parent, a fact'), deletedFact]);
      await s.memories.update('ws_a', deletedFact.id, { status: 'deleted' });
      const ids = [parent!.id, other!.id, bare!.id];
      expect(await s.memories.sourcesOfDerived('ws_a', ids, ['active', 'archived'])).toEqual(new Set([parent!.id]));
      expect(await s.memories.sourcesOfDerived('ws_a', ids, ['deleted'])).toEqual(new Set([other!.id]));
      expect((await s.memories.sourcesOfDerived('ws_b', ids, ['active', 'deleted'])).size).toBe(0);
      expect((await s.memories.sourcesOfDerived('ws_a', [], ['active'])).size).toBe(0);
      await s.close();
    });

    it('hard delete removes the memory, its vector, keyword entry and edges', async () => {
      const s = await fresh();
      const a = memory('ws_a', 'zebra crossing', axisVector(DIMS, 0));
      const b = memory('ws_a', 'zebra stripes', axisVector(DIMS, 0, 0.1));
      await s.memories.insert([a, b]);
      await s.associations.upsert(association('ws_a', a.id, b.id));
      expect(await s.memories.hardDelete('ws_b', [a.id])).toBe(0);
      expect(await s.memories.hardDelete('ws_a', [a.id])).toBe(1);
      expect(await s.memories.get('ws_a', a.id)).toBeNull();
      expect(await s.associations.count('ws_a')).toBe(0);
      expect((await s.memories.keywordSearch('ws_a', ['zebra'], { k: 5 })).map((r) => r.id)).toEqual([b.id]);
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 5 })).map((r) => r.id)).toEqual([b.id]);
      await s.close();
    });

    it('scans in storage order with embeddings, across statuses', async () => {
      const s = await fresh();
      const rows = [0, 1, 2].map((i) =>
        memory('ws_a', `scan ${i}`, axisVector(DIMS, i), { status: i === 1 ? 'deleted' : 'active' }),
      );
      await s.memories.insert(rows);
      const page1 = await s.memories.scan('ws_a', 0, 2);
      expect(page1.map((r) => r.memory.content)).toEqual(['scan 0', 'scan 1']);
      const page2 = await s.memories.scan('ws_a', page1[1]!.seq, 2);
      expect(page2.map((r) => r.memory.content)).toEqual(['scan 2']);
      expect(Array.from(page2[0]!.embedding!)).toEqual(Array.from(axisVector(DIMS, 2)));
      await s.close();
    });
  });

  describe.each([
    { path: 'index', annMinSize: 0 },
    { path: 'exact scan', annMinSize: Number.POSITIVE_INFINITY },
  ])('vector search ($path)', ({ annMinSize }) => {
    it('ranks by cosine similarity within the workspace, honouring status and filters', async () => {
      const s = await fresh({ annMinSize });
      const near = memory('ws_a', 'near', axisVector(DIMS, 0, 0.1), { tags: ['t'] });
      // The HNSW graphs hold half-precision floats (2^-11 apart just below 1): a spill of 0.01 left `nearer` equal to
      // the exact matches in PostgreSQL's graph, which then ordered the tie as it liked (the k = 1 search below
      // returned `nearer` in 15 of 100 tries with the index forced); 0.03 is distinct in half precision too.
      const nearer = memory('ws_a', 'nearer', axisVector(DIMS, 0, 0.03));
      const far = memory('ws_a', 'far', axisVector(DIMS, 4), { tags: ['t'] });
      const deleted = memory('ws_a', 'deleted', axisVector(DIMS, 0), { status: 'deleted' });
      const archived = memory('ws_a', 'archived', axisVector(DIMS, 0), { status: 'archived' });
      const otherWorkspace = memory('ws_b', 'other', axisVector(DIMS, 0));
      await s.memories.insert([near, nearer, far, deleted, archived, otherWorkspace]);

      const results = await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 3 });
      expect(results.map((r) => r.id)).toEqual([nearer.id, near.id, far.id]);
      expect(results[0]!.score).toBeGreaterThan(results[1]!.score);
      expect(results[2]!.score).toBeCloseTo(0, 5);

      const withArchived = await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), {
        k: 1,
        filter: { statuses: ['active', 'archived'] },
      });
      expect(withArchived.map((r) => r.id)).toEqual([archived.id]);
      const tagged = await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 5, filter: { tags: ['t'] } });
      expect(tagged.map((r) => r.id)).toEqual([near.id, far.id]);
      const excluded = await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), {
        k: 1,
        filter: { excludeIds: [nearer.id] },
      });
      expect(excluded.map((r) => r.id)).toEqual([near.id]);
      await s.close();
    });

    it('a near-duplicate check (minScore) finds the same near neighbours for every vector, in its workspace only', async () => {
      const s = await fresh();
      const x = memory('ws_a', 'x', axisVector(DIMS, 0, 0.05));
      const y = memory('ws_a', 'y', axisVector(DIMS, 1, 0.05));
      const fact = memory('ws_a', 'fact of x', axisVector(DIMS, 0), { source_memory_id: x.id });
      const far = memory('ws_a', 'far', axisVector(DIMS, 4));
      const otherWorkspace = memory('ws_b', 'other', axisVector(DIMS, 1));
      await s.memories.insert([x, y, fact, far, otherWorkspace]);
      const queries = [axisVector(DIMS, 0), axisVector(DIMS, 1), axisVector(DIMS, 5)];
      const options = { k: 3, filter: { derived: false } };
      const near = await s.memories.vectorSearchMany('ws_a', queries, { ...options, minScore: 0.9 });
      const close = (hits: ReadonlyArray<{ id: string; score: number }>) =>
        hits.filter((h) => h.score >= 0.9).map((h) => h.id);
      expect(near.map(close)).toEqual([[x.id], [y.id], []]);
      expect(near.map(close)).toEqual((await s.memories.vectorSearchMany('ws_a', queries, options)).map(close));
      await s.close();
    });

    it('a batch of searches answers each vector as its own search does, in its order, with its filter', async () => {
      const s = await fresh({ annMinSize });
      const written = Array.from({ length: 12 }, (_, i) =>
        memory(i % 5 === 4 ? 'ws_b' : 'ws_a', `m${i}`, seededVector(DIMS, i), { tags: i % 2 === 0 ? ['even'] : [] }),
      );
      await s.memories.insert(written);
      const queries = [100, 101, 102, 103].map((seed) => seededVector(DIMS, seed));
      for (const options of [{ k: 4 }, { k: 2, filter: { tags: ['even'] } }]) {
        const batched = await s.memories.vectorSearchMany('ws_a', queries, options);
        const single = await Promise.all(queries.map((q) => s.memories.vectorSearch('ws_a', q, options)));
        expect(batched).toHaveLength(queries.length);
        expect(batched.flat().length).toBeGreaterThan(queries.length);
        expect(batched.map((hits) => hits.map((h) => h.id))).toEqual(single.map((hits) => hits.map((h) => h.id)));
        const scores = single.flat().map((hit) => hit.score);
        for (const [i, hit] of batched.flat().entries()) expect(hit.score).toBeCloseTo(scores[i]!, 5);
      }
      await s.close();
    });

    it('names the parent of an atomic fact, also after the index is rebuilt from the database', async () => {
      const s = await fresh({ annMinSize });
      const parent = memory('ws_a', 'Ana moved to Oslo. She loves fjords.', axisVector(DIMS, 2, 0.3));
      const fact = memory('ws_a', 'Ana moved to Oslo.', axisVector(DIMS, 2), {
        source_scope: 'fact',
        source_memory_id: parent.id,
      });
      const insight = memory('ws_a', 'Ana likes the north', axisVector(DIMS, 2, 0.6), {
        source_scope: 'insight',
        source_memory_id: parent.id,
      });
      await s.memories.insert([parent, fact, insight]);
      const expected = [
        { id: fact.id, factOf: parent.id },
        { id: parent.id, factOf: null },
        { id: insight.id, factOf: null },
      ];
      const search = async () =>
        (await s.memories.vectorSearch('ws_a', axisVector(DIMS, 2), { k: 3 })).map(({ id, factOf }) => ({
          id,
          factOf,
        }));
      expect(await search()).toEqual(expected);
      await s.engine.dropVectorIndexes(s.sqlContext.db);
      await s.engine.warmUp(s.sqlContext.db);
      expect(await search()).toEqual(expected);
      await s.close();
    });

    it('finds every memory of a group of identical vectors, and follows deletes and replacements within it', async () => {
      const s = await fresh({ annMinSize });
      const copies = [0, 1, 2, 3, 4].map((i) => memory('ws_a', `copy ${i}`, axisVector(DIMS, 3)));
      const near = memory('ws_a', 'near', axisVector(DIMS, 3, 0.2));
      const far = memory('ws_a', 'far', axisVector(DIMS, 9));
      await s.memories.insert([...copies, near, far]);
      const search = async (axis: number, k: number, filter = {}) =>
        s.memories.vectorSearch('ws_a', axisVector(DIMS, axis), { k, filter });
      const ids = (hits: Array<{ id: string }>) => hits.map((h) => h.id);

      const all = await search(3, 10);
      expect(new Set(ids(all.slice(0, 5)))).toEqual(new Set(ids(copies)));
      expect(ids(all.slice(5))).toEqual([near.id, far.id]);
      for (const hit of all.slice(0, 5)) expect(hit.score).toBeCloseTo(1, 4);
      expect((await search(3, 2)).length).toBe(2);
      const others = await search(3, 10, { excludeIds: [copies[0]!.id] });
      expect(new Set(ids(others.slice(0, 4)))).toEqual(new Set(ids(copies.slice(1))));
      expect(ids(others.slice(4))).toEqual([near.id, far.id]);

      await s.memories.update('ws_a', copies[0]!.id, { status: 'deleted', deleted_at: '2026-01-02T00:00:00.000Z' });
      await s.transaction((tx) =>
        tx.memories.setEmbeddings([{ workspaceId: 'ws_a', id: copies[1]!.id, embedding: axisVector(DIMS, 6) }]),
      );
      const remaining = ids(copies.slice(2));
      const expectAfterChanges = async () => {
        // Four: the replaced copy and `far` tie at similarity 0 after `near`.
        const found = await search(3, 4);
        expect(new Set(ids(found.slice(0, 3)))).toEqual(new Set(remaining));
        expect(found[3]!.id).toBe(near.id);
        expect(ids(await search(6, 1))).toEqual([copies[1]!.id]);
      };
      await expectAfterChanges();
      await s.engine.dropVectorIndexes(s.sqlContext.db);
      await s.engine.warmUp(s.sqlContext.db);
      await expectAfterChanges();

      for (const id of remaining)
        await s.memories.update('ws_a', id, { status: 'deleted', deleted_at: '2026-01-02T00:00:00.000Z' });
      expect(ids(await search(3, 1))).toEqual([near.id]);
      // A new vector after a group emptied (the index gives it the emptied group's node key).
      const newcomer = memory('ws_a', 'newcomer', axisVector(DIMS, 5));
      await s.memories.insert([newcomer]);
      expect(ids(await search(5, 1))).toEqual([newcomer.id]);
      expect(ids(await search(3, 1))).toEqual([near.id]);
      await s.close();
    });

    it('follows replaced embeddings', async () => {
      const s = await fresh({ annMinSize });
      const m = memory('ws_a', 'moving target', axisVector(DIMS, 1));
      const other = memory('ws_a', 'bystander', axisVector(DIMS, 1, 0.5));
      await s.memories.insert([m, other]);
      await s.transaction((tx) =>
        tx.memories.setEmbeddings([{ workspaceId: 'ws_a', id: m.id, embedding: axisVector(DIMS, 7) }]),
      );
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 7), { k: 1 }))[0]).toMatchObject({
        id: m.id,
        score: expect.closeTo(1, 5),
      });
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 1), { k: 1 }))[0]!.id).toBe(other.id);
      await s.close();
    });

    it('keeps the last of two embeddings given to one memory in one write', async () => {
      const s = await fresh({ annMinSize });
      const m = memory('ws_a', 'twice moved', axisVector(DIMS, 1));
      const other = memory('ws_a', 'bystander', axisVector(DIMS, 6, 0.5));
      await s.memories.insert([m, other]);
      await s.transaction((tx) =>
        tx.memories.setEmbeddings([
          { workspaceId: 'ws_a', id: m.id, embedding: axisVector(DIMS, 6) },
          { workspaceId: 'ws_a', id: m.id, embedding: axisVector(DIMS, 7) },
        ]),
      );
      expect(await s.memories.vectorSearch('ws_a', axisVector(DIMS, 7), { k: 1 })).toEqual([
        expect.objectContaining({ id: m.id, score: expect.closeTo(1, 5) }),
      ]);
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 6), { k: 2 })).map((r) => r.id)).toEqual([
        other.id,
        m.id,
      ]);
      await s.close();
    });

    it('follows soft deletes and restores made through update', async () => {
      const s = await fresh({ annMinSize });
      const m = memory('ws_a', 'target', axisVector(DIMS, 5));
      await s.memories.insert([m]);
      await s.memories.update('ws_a', m.id, { status: 'deleted', deleted_at: '2026-01-02T00:00:00.000Z' });
      expect(await s.memories.vectorSearch('ws_a', axisVector(DIMS, 5), { k: 5 })).toEqual([]);
      await s.memories.update('ws_a', m.id, { status: 'active', deleted_at: null });
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 5), { k: 5 })).map((r) => r.id)).toEqual([m.id]);
      await s.close();
    });
  });

  describe('keyword search', () => {
    it('matches any term, ranks a rare term first, stems, and stays in the workspace', async () => {
      const s = await fresh();
      const rare = memory('ws_a', 'The xylophone concert was on Friday', axisVector(DIMS, 0));
      const common1 = memory('ws_a', 'The concert was loud', axisVector(DIMS, 1));
      const common2 = memory('ws_a', 'Another concert is planned', axisVector(DIMS, 2));
      const other = memory('ws_b', 'xylophone lessons', axisVector(DIMS, 3));
      await s.memories.insert([rare, common1, common2, other]);
      const results = await s.memories.keywordSearch('ws_a', ['xylophone', 'concert'], { k: 10 });
      expect(results[0]!.id).toBe(rare.id);
      expect(results.map((r) => r.id).sort()).toEqual([rare.id, common1.id, common2.id].sort());
      expect((await s.memories.keywordSearch('ws_a', ['concerts'], { k: 10 })).length).toBe(3);
      expect((await s.memories.keywordSearch('ws_a', ['plan"ned OR x'], { k: 10 })).length).toBe(0);
      expect(await s.memories.keywordSearch('ws_a', ['nothing'], { k: 10 })).toEqual([]);
      await s.close();
    });

    it('never finds atomic facts, nor counts them, even after their content changes', async () => {
      const s = await fresh();
      const parent = memory('ws_a', 'Ana adopted a greyhound. She walks it at dawn.', axisVector(DIMS, 0));
      const fact = memory('ws_a', 'Ana adopted a greyhound.', axisVector(DIMS, 1), {
        source_scope: 'fact',
        source_memory_id: parent.id,
      });
      await s.memories.insert([parent, fact]);
      expect((await s.memories.keywordSearch('ws_a', ['greyhound'], { k: 5 })).map((r) => r.id)).toEqual([parent.id]);
      expect(await s.memories.keywordMatchCounts('ws_a', [['greyhound']], { cap: 10 })).toEqual([1]);
      await s.memories.update('ws_a', fact.id, { content: 'Ana adopted a whippet.' });
      expect(await s.memories.keywordSearch('ws_a', ['whippet'], { k: 5 })).toEqual([]);
      await s.close();
    });

    it('sees committed writes at once, and a transaction its own uncommitted ones; counts matches', async () => {
      const s = await fresh();
      const a = memory('ws_a', 'The quokka smiled at the camera', axisVector(DIMS, 0));
      await s.memories.insert([a]);
      expect((await s.memories.keywordSearch('ws_a', ['quokka'], { k: 5 })).map((r) => r.id)).toEqual([a.id]);
      const b = memory('ws_a', 'A second quokka photo', axisVector(DIMS, 1));
      const inside = await s.transaction(async (tx) => {
        await tx.memories.insert([b]);
        return tx.memories.keywordSearch('ws_a', ['quokka'], { k: 5 });
      });
      expect(inside.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
      expect(
        await s.memories.keywordMatchCounts('ws_a', [['quokka'], ['quokka', 'camera'], [], ['walrus']], { cap: 10 }),
      ).toEqual([2, 1, 0, 0]);
      await s.close();
    });
  });

  describe('associations', () => {
    it('upserts one edge per (source, target, relationship) and lists by direction', async () => {
      const s = await fresh();
      const [a, b, c] = ['a', 'b', 'c'].map((x, i) => memory('ws_a', x, axisVector(DIMS, i)));
      await s.memories.insert([a!, b!, c!]);
      const first = await s.associations.upsert(association('ws_a', a!.id, b!.id, 'causes', 0.4));
      const again = await s.associations.upsert({
        ...association('ws_a', a!.id, b!.id, 'causes', 0.9),
        metadata: { v: 2 },
      });
      expect(again).toMatchObject({ id: first.id, strength: 0.9, metadata: { v: 2 } });
      await s.associations.upsert(association('ws_a', c!.id, a!.id, 'follows', 0.7));
      expect(await s.associations.count('ws_a')).toBe(2);

      const out = await s.associations.listForMemories('ws_a', [a!.id], { direction: 'outgoing' });
      expect(out.map((e) => e.target_id)).toEqual([b!.id]);
      const incoming = await s.associations.listForMemories('ws_a', [a!.id], { direction: 'incoming' });
      expect(incoming.map((e) => e.source_id)).toEqual([c!.id]);
      expect((await s.associations.listForMemories('ws_a', [a!.id], { direction: 'both' })).length).toBe(2);
      expect(
        (await s.associations.listForMemories('ws_a', [a!.id], { direction: 'both', relationships: ['follows'] }))
          .length,
      ).toBe(1);
      expect(await s.associations.listForMemories('ws_b', [a!.id], { direction: 'both' })).toEqual([]);
      expect(await s.associations.incomingCounts('ws_a', [a!.id, b!.id, c!.id])).toEqual(
        new Map([
          [a!.id, 1],
          [b!.id, 1],
        ]),
      );
      await s.close();
    });

    it('upserts many edges as one by one in order: over several statements, an edge named twice kept once', async () => {
      const s = await fresh();
      const [a, b] = ['a', 'b'].map((x, i) => memory('ws_a', x, axisVector(DIMS, i)));
      await s.memories.insert([a!, b!]);
      const existing = await s.associations.upsert(association('ws_a', a!.id, b!.id, 'r0', 0.1));
      // 1,200 relationships: more than one statement's worth; r0 exists already, r7 is named twice in one statement's
      // worth (which PostgreSQL refuses to update twice in one statement).
      const edges = Array.from({ length: 1_200 }, (_, i) => association('ws_a', a!.id, b!.id, `r${i}`, 0.5));
      const named = { ...association('ws_a', a!.id, b!.id, 'r7', 0.9), metadata: { v: 2 } };
      await s.associations.upsertMany([...edges.slice(0, 8), named, ...edges.slice(8)]);
      expect(await s.associations.count('ws_a')).toBe(1_200);
      const out = await s.associations.listForMemories('ws_a', [a!.id], { direction: 'outgoing' });
      const by = new Map(out.map((e) => [e.relationship, e]));
      expect(by.get('r0')).toMatchObject({ id: existing.id, strength: 0.5 });
      expect(by.get('r7')).toMatchObject({ id: edges[7]!.id, strength: 0.9, metadata: { v: 2 } });
      expect(by.get('r1199')).toMatchObject({ id: edges[1199]!.id, strength: 0.5 });
      await s.associations.upsertMany([]);
      expect(await s.associations.count('ws_a')).toBe(1_200);
      await s.close();
    });

    it('neighbours skip edges whose far end is not active and honour min strength and left-out relationships', async () => {
      const s = await fresh();
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((x, i) => memory('ws_a', x, axisVector(DIMS, i)));
      await s.memories.insert([a!, b!, c!, d!]);
      await s.associations.upsert(association('ws_a', a!.id, b!.id, 'similar_to', 0.9));
      await s.associations.upsert(association('ws_a', a!.id, c!.id, 'similar_to', 0.2));
      await s.associations.upsert(association('ws_a', d!.id, a!.id, 'causes', 0.8));
      await s.memories.update('ws_a', d!.id, { status: 'deleted' });
      const found = await s.associations.neighbours('ws_a', [a!.id], { direction: 'both', minStrength: 0.5 });
      expect(found.map((e) => e.target_id)).toEqual([b!.id]);
      await s.associations.upsert(association('ws_a', c!.id, a!.id, 'references', 0.6));
      const typed = await s.associations.neighbours('ws_a', [a!.id], {
        direction: 'both',
        excludeRelationships: ['similar_to', 'variant_of'],
      });
      expect(typed.map((e) => [e.source_id, e.relationship])).toEqual([[c!.id, 'references']]);
      await s.close();
    });
  });

  describe('tasks', () => {
    it('leases due tasks once, re-leases expired leases, retries and fails for good', async () => {
      const s = await fresh();
      await s.tasks.enqueue([
        {
          kind: 'a',
          workspaceId: 'ws_a',
          payload: { n: 1 },
          runAt: '2026-01-01T00:00:00.000Z',
          dedupeKey: 'only-once',
        },
        {
          kind: 'a',
          workspaceId: 'ws_a',
          payload: { n: 2 },
          runAt: '2026-01-01T00:00:00.000Z',
          dedupeKey: 'only-once',
        },
        { kind: 'b', workspaceId: null, payload: { n: 3 }, runAt: '2026-01-01T00:00:01.000Z' },
        { kind: 'c', workspaceId: null, payload: { n: 4 }, runAt: '2030-01-01T00:00:00.000Z' },
      ]);
      const now = '2026-01-01T00:00:05.000Z';
      // The 2030 task is not due yet: scheduled, not pending.
      expect(await s.tasks.counts(now)).toEqual({ pending: 2, scheduled: 1, running: 0, failed: 0 });
      const claimed = await s.tasks.claim({ now, leaseUntil: '2026-01-01T00:01:00.000Z', limit: 10 });
      expect(claimed.map((t) => t.payload.n)).toEqual([1, 3]);
      expect(claimed.every((t) => t.attempts === 1 && t.status === 'running')).toBe(true);
      expect(await s.tasks.claim({ now, leaseUntil: '2026-01-01T00:01:00.000Z', limit: 10 })).toEqual([]);

      // The worker holding task 1 died: after its lease, someone else gets it.
      const reclaimed = await s.tasks.claim({
        now: '2026-01-01T00:02:00.000Z',
        leaseUntil: '2026-01-01T00:03:00.000Z',
        limit: 1,
      });
      expect(reclaimed.map((t) => [t.payload.n, t.attempts])).toEqual([[1, 2]]);
      await s.tasks.complete([reclaimed[0]!.id]);

      const task3 = claimed[1]!;
      await s.tasks.fail(task3.id, 'boom', '2026-01-01T00:10:00.000Z');
      expect(
        await s.tasks.claim({ now: '2026-01-01T00:05:00.000Z', leaseUntil: '2026-01-01T00:06:00.000Z', limit: 10 }),
      ).toEqual([]);
      const retried = await s.tasks.claim({
        now: '2026-01-01T00:10:00.000Z',
        leaseUntil: '2026-01-01T00:11:00.000Z',
        limit: 10,
      });
      expect(retried.map((t) => [t.payload.n, t.lastError])).toEqual([[3, 'boom']]);
      await s.tasks.fail(task3.id, 'boom again', null);
      expect(await s.tasks.counts('2026-01-01T00:10:00.000Z')).toEqual({
        pending: 0,
        scheduled: 1,
        running: 0,
        failed: 1,
      });
      // Renewed leases hold; released ones return to the queue at once.
      await s.tasks.enqueue([{ kind: 'd', workspaceId: null, payload: {}, runAt: '2026-01-01T00:20:00.000Z' }]);
      const [held] = await s.tasks.claim({
        now: '2026-01-01T00:20:00.000Z',
        leaseUntil: '2026-01-01T00:21:00.000Z',
        limit: 1,
      });
      await s.tasks.extendLeases([held!.id], '2026-01-01T00:30:00.000Z');
      expect(
        await s.tasks.claim({ now: '2026-01-01T00:25:00.000Z', leaseUntil: '2026-01-01T00:26:00.000Z', limit: 1 }),
      ).toEqual([]);
      expect(await s.tasks.releaseAllLeases()).toBe(1);
      expect(
        (
          await s.tasks.claim({ now: '2026-01-01T00:25:00.000Z', leaseUntil: '2026-01-01T00:26:00.000Z', limit: 1 })
        ).map((t) => t.id),
      ).toEqual([held!.id]);
      await s.tasks.release([held!.id]);
      expect(
        (
          await s.tasks.claim({ now: '2026-01-01T00:25:01.000Z', leaseUntil: '2026-01-01T00:26:00.000Z', limit: 1 })
        ).map((t) => t.id),
      ).toEqual([held!.id]);
      await s.tasks.complete([held!.id]);
      // A finished key can be queued again.
      await s.tasks.enqueue([
        { kind: 'a', workspaceId: 'ws_a', payload: { n: 5 }, runAt: now, dedupeKey: 'only-once' },
      ]);
      expect((await s.tasks.counts('2031-01-01T00:00:00.000Z')).pending).toBe(2);
      await s.close();
    });

    it('runs a task again that was queued anew while it ran, when asked to; otherwise drops the duplicate', async () => {
      const s = await fresh();
      const task = (n: number, rerunIfRunning: boolean) => ({
        kind: 'memory.enrich',
        workspaceId: 'ws_a',
        payload: { n },
        runAt: '2026-01-01T00:00:00.000Z',
        dedupeKey: 'memory.enrich:mem_1',
        rerunIfRunning,
      });
      const lease = { now: '2026-01-01T00:00:01.000Z', leaseUntil: '2026-01-01T00:01:00.000Z', limit: 10 };
      await s.tasks.enqueue([task(1, false)]);
      const [running] = await s.tasks.claim(lease);
      // A plain duplicate of a running task is dropped, as of a pending one.
      await s.tasks.enqueue([task(2, false)]);
      expect(await s.tasks.claim(lease)).toEqual([]);
      // Queued anew with what changed: pending again at once, and the run under way completes nothing.
      await s.tasks.enqueue([task(3, true)]);
      await s.tasks.complete([running!.id]);
      await s.tasks.fail(running!.id, 'the old run failed after all', null);
      const [again] = await s.tasks.claim(lease);
      expect(again).toMatchObject({ id: running!.id, payload: { n: 3 }, status: 'running' });
      await s.tasks.complete([again!.id]);
      expect(await s.tasks.counts('2026-01-01T00:00:02.000Z')).toEqual({
        pending: 0,
        scheduled: 0,
        running: 0,
        failed: 0,
      });
      // Asking so of a pending task changes nothing: it has not read anything yet.
      await s.tasks.enqueue([task(4, false), task(5, true)]);
      expect((await s.tasks.claim(lease)).map((t) => t.payload.n)).toEqual([4]);
      await s.close();
    });

    it('claims expired leases and due tasks together, oldest first, up to the limit', async () => {
      const s = await fresh();
      const task = (n: number, runAt: string) => ({ kind: 'k', workspaceId: null, payload: { n }, runAt });
      await s.tasks.enqueue([task(1, '2026-01-01T00:00:01.000Z'), task(2, '2026-01-01T00:00:02.000Z')]);
      // Both leased by a worker that then dies.
      await s.tasks.claim({ now: '2026-01-01T00:00:05.000Z', leaseUntil: '2026-01-01T00:01:00.000Z', limit: 10 });
      await s.tasks.enqueue([
        task(3, '2026-01-01T00:00:00.000Z'),
        task(4, '2026-01-01T00:00:03.000Z'),
        task(5, '2026-01-01T00:00:04.000Z'),
      ]);
      const now = '2026-01-01T00:02:00.000Z';
      const first = await s.tasks.claim({ now, leaseUntil: '2026-01-01T00:03:00.000Z', limit: 3 });
      // The three oldest by run_at: pending 3, then the expired 1 and 2 (answered in id order).
      expect(first.map((t) => [t.payload.n, t.attempts])).toEqual([
        [1, 2],
        [2, 2],
        [3, 1],
      ]);
      const rest = await s.tasks.claim({ now, leaseUntil: '2026-01-01T00:03:00.000Z', limit: 3 });
      expect(rest.map((t) => t.payload.n)).toEqual([4, 5]);
      await s.close();
    });
  });

  describe('transactions', () => {
    it('roll back every write of a failed unit of work, search entries included', async () => {
      const s = await fresh();
      const m = memory('ws_a', 'phantom memory', axisVector(DIMS, 6));
      await expect(
        s.transaction(async (tx) => {
          await tx.memories.insert([m]);
          await tx.tasks.enqueue([{ kind: 'k', workspaceId: 'ws_a', payload: {}, runAt: m.created_at }]);
          expect(await tx.memories.get('ws_a', m.id)).not.toBeNull();
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await s.memories.get('ws_a', m.id)).toBeNull();
      expect((await s.tasks.counts('9999-12-31T00:00:00.000Z')).pending).toBe(0);
      expect(await s.memories.keywordSearch('ws_a', ['phantom'], { k: 5 })).toEqual([]);
      expect(await s.memories.vectorSearch('ws_a', axisVector(DIMS, 6), { k: 5 })).toEqual([]);

      await s.transaction(async (tx) => tx.memories.insert([m]));
      expect((await s.memories.vectorSearch('ws_a', axisVector(DIMS, 6), { k: 1 })).map((r) => r.id)).toEqual([m.id]);
      await s.close();
    });
  });

  describe('sessions', () => {
    it('stores sessions and working memory, hides expired entries and cascades deletes', async () => {
      const s = await fresh();
      const at = '2026-01-01T00:00:00.000Z';
      const session = {
        id: 'sess_1',
        workspace_id: 'ws_a',
        tenant_id: 'default',
        context_id: '_default',
        user_id: null,
        metadata: { m: 1 },
        ttl_seconds: 60,
        expires_at: '2026-01-01T00:01:00.000Z',
        created_at: at,
        updated_at: at,
      };
      await s.sessions.create(session);
      await s.sessions.create({
        ...session,
        id: 'sess_2',
        workspace_id: 'ws_b',
        expires_at: '2026-01-01T02:00:00.000Z',
      });
      expect(await s.sessions.get('sess_1')).toEqual(session);
      expect((await s.sessions.list({ workspaceId: 'ws_a' })).map((x) => x.id)).toEqual(['sess_1']);
      expect((await s.sessions.list({ activeAt: '2026-01-01T00:30:00.000Z' })).map((x) => x.id)).toEqual(['sess_2']);
      expect((await s.sessions.expired('2026-01-01T00:30:00.000Z', 10)).map((x) => x.id)).toEqual(['sess_1']);
      expect(await s.sessions.update('sess_1', { expires_at: '2026-01-01T05:00:00.000Z' })).toMatchObject({
        expires_at: '2026-01-01T05:00:00.000Z',
      });

      await s.sessions.putEntry('sess_1', {
        key: 'k',
        value: { a: [1] },
        ttl_seconds: null,
        expires_at: null,
        created_at: at,
        updated_at: at,
      });
      const replaced = await s.sessions.putEntry('sess_1', {
        key: 'k',
        value: 'v2',
        ttl_seconds: 10,
        expires_at: '2026-01-01T00:00:10.000Z',
        created_at: '2026-01-01T00:00:05.000Z',
        updated_at: '2026-01-01T00:00:05.000Z',
      });
      expect(replaced).toMatchObject({ value: 'v2', created_at: at, updated_at: '2026-01-01T00:00:05.000Z' });
      await s.sessions.putEntry('sess_1', {
        key: 'n',
        value: null,
        ttl_seconds: null,
        expires_at: null,
        created_at: at,
        updated_at: at,
      });
      expect((await s.sessions.entries('sess_1', '2026-01-01T00:00:09.000Z')).map((e) => e.key)).toEqual(['k', 'n']);
      expect((await s.sessions.entries('sess_1', '2026-01-01T00:00:10.000Z')).map((e) => [e.key, e.value])).toEqual([
        ['n', null],
      ]);
      expect(await s.sessions.deleteEntry('sess_1', 'n')).toBe(true);

      expect(await s.sessions.delete('sess_1')).toBe(true);
      expect(await s.sessions.entries('sess_1', at)).toEqual([]);
      await s.workspaces.delete('ws_b');
      expect(await s.sessions.get('sess_2')).toBeNull();
      await s.close();
    });
  });

  describe('api keys and meta', () => {
    it('stores keys by hash and meta values by key', async () => {
      const s = await fresh();
      await s.apiKeys.create({
        id: 'key_1',
        name: 'ci',
        key_hash: 'h1',
        key_prefix: 'memd_ab',
        workspaces: ['ws_a'],
        created_at: '2026-01-01T00:00:00.000Z',
        last_used_at: null,
      });
      expect(await s.apiKeys.findByHash('h1')).toMatchObject({ id: 'key_1', workspaces: ['ws_a'] });
      await s.apiKeys.touch('key_1', '2026-01-02T00:00:00.000Z');
      expect((await s.apiKeys.list())[0]!.last_used_at).toBe('2026-01-02T00:00:00.000Z');
      expect(await s.apiKeys.delete('key_1')).toBe(true);
      expect(await s.apiKeys.findByHash('h1')).toBeNull();
      await s.meta.set('embedder', 'a');
      await s.meta.set('embedder', 'b');
      expect(await s.meta.get('embedder')).toBe('b');
      expect(await s.meta.get('missing')).toBeNull();
      await s.close();
    });
  });
});
