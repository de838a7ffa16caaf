import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { Contradiction } from '../../src/storage/types.js';
import { axisVector, id, memory, thread, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const DIMS = 8;
const T0 = '2026-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const message = (text: string, minute = 1) => ({
  id: id('msg'),
  role: 'user' as const,
  content: text,
  metadata: {},
  created_at: at(minute),
});

describe.each(storageBackends())('conversation storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(DIMS);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  describe('threads', () => {
    it('keeps thread ids per workspace, round-trips every field, lists active ones with a total', async () => {
      const s = await fresh();
      const full = thread('ws_a', 'shared-id', {
        user_id: 'u1',
        observer_id: 'agent',
        subject_id: 'ana',
        title: 'Hello',
        metadata: { a: [1] },
        expires_at: at(60),
      });
      await s.threads.create(full);
      await s.threads.create(thread('ws_b', 'shared-id'));
      await s.threads.create(thread('ws_a', 'other', { user_id: 'u2', updated_at: at(5) }));
      await s.threads.create(thread('ws_a', 'gone', { expires_at: at(10) }));
      expect(await s.threads.get('ws_a', 'shared-id')).toEqual(full);
      expect((await s.threads.get('ws_b', 'shared-id'))?.title).toBeNull();

      const listed = await s.threads.list('ws_a', { activeAt: at(10), limit: 10, offset: 0 });
      expect(listed.threads.map((t) => t.id)).toEqual(['other', 'shared-id']);
      expect(listed.total).toBe(2);
      expect(
        (await s.threads.list('ws_a', { activeAt: at(10), userId: 'u1', limit: 10, offset: 0 })).threads.map(
          (t) => t.id,
        ),
      ).toEqual(['shared-id']);
      const page = await s.threads.list('ws_a', { activeAt: at(0), limit: 1, offset: 1 });
      expect([page.threads.length, page.total]).toEqual([1, 3]);
      expect(
        (await s.threads.list('ws_a', { activeAt: at(0), updatedAfter: at(1), limit: 10, offset: 0 })).threads.map(
          (t) => t.id,
        ),
      ).toEqual(['other']);

      expect(await s.threads.update('ws_a', 'shared-id', { title: 'Renamed', updated_at: at(2) })).toMatchObject({
        title: 'Renamed',
        metadata: { a: [1] },
      });
      expect(await s.threads.update('ws_b', 'nope', { title: 'x' })).toBeNull();
      await s.close();
    });

    it('appends with increasing indexes, never reused after a delete, and lists messages', async () => {
      const s = await fresh();
      await s.threads.create(thread('ws_a', 't1'));
      const first = await s.transaction((tx) =>
        tx.threads.appendMessages('ws_a', 't1', [message('zero'), message('one')]),
      );
      expect(first!.map((m) => m.message_index)).toEqual([0, 1]);
      const blocks = [
        { type: 'text', text: 'two' },
        { type: 'image', data: { url: 'x' } },
      ];
      const second = await s.transaction((tx) =>
        tx.threads.appendMessages('ws_a', 't1', [{ ...message('', 2), role: 'assistant', content: blocks }]),
      );
      expect(second![0]).toMatchObject({
        message_index: 2,
        role: 'assistant',
        content: blocks,
        thread_id: 't1',
        workspace_id: 'ws_a',
      });
      expect(await s.transaction((tx) => tx.threads.appendMessages('ws_b', 't1', [message('x')]))).toBeNull();

      expect(await s.threads.deleteMessage('ws_a', 't1', second![0]!.id, at(3))).toBe(true);
      expect(await s.threads.deleteMessage('ws_a', 't1', second![0]!.id, at(3))).toBe(false);
      const third = await s.transaction((tx) => tx.threads.appendMessages('ws_a', 't1', [message('three', 4)]));
      expect(third![0]!.message_index).toBe(3);
      expect(await s.threads.get('ws_a', 't1')).toMatchObject({ message_count: 3, updated_at: at(4) });

      const asc = await s.threads.listMessages('ws_a', 't1', { order: 'asc', limit: 10, offset: 0 });
      expect(asc.messages.map((m) => m.message_index)).toEqual([0, 1, 3]);
      expect(asc.total).toBe(3);
      const after = await s.threads.listMessages('ws_a', 't1', { afterIndex: 0, order: 'desc', limit: 1, offset: 0 });
      expect([after.messages.map((m) => m.content), after.total]).toEqual([['three'], 2]);
      await s.close();
    });

    it('hands out unique indexes to concurrent appends', async () => {
      const s = await fresh();
      await s.threads.create(thread('ws_a', 'busy'));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          s.transaction((tx) => tx.threads.appendMessages('ws_a', 'busy', [message(`m${i}a`), message(`m${i}b`)])),
        ),
      );
      const indexes = results.flatMap((r) => r!.map((m) => m.message_index)).sort((a, b) => a - b);
      expect(indexes).toEqual(Array.from({ length: 40 }, (_, i) => i));
      for (const r of results) expect(r![1]!.message_index).toBe(r![0]!.message_index + 1);
      await s.close();
    });

    it('advances the decomposition mark only from the expected value', async () => {
      const s = await fresh();
      await s.threads.create(thread('ws_a', 't1'));
      expect(await s.threads.markDecomposed('ws_a', 't1', -1, 4, at(1))).toBe(true);
      expect(await s.threads.markDecomposed('ws_a', 't1', -1, 9, at(2))).toBe(false);
      expect(await s.threads.get('ws_a', 't1')).toMatchObject({ last_decomposed_index: 4, last_decomposed_at: at(1) });
      await s.close();
    });

    it('deletes threads with their messages, and expired ones in bounded batches', async () => {
      const s = await fresh();
      await s.threads.create(thread('ws_a', 'keep'));
      await s.threads.create(thread('ws_a', 'old1', { expires_at: at(1) }));
      await s.threads.create(thread('ws_b', 'old2', { expires_at: at(2) }));
      await s.threads.create(thread('ws_a', 'later', { expires_at: at(100) }));
      await s.transaction((tx) => tx.threads.appendMessages('ws_a', 'old1', [message('bye')]));
      expect(await s.threads.deleteExpired(at(50), 1)).toBe(1);
      expect(await s.threads.get('ws_a', 'old1')).toBeNull();
      expect((await s.threads.listMessages('ws_a', 'old1', { order: 'asc', limit: 10, offset: 0 })).total).toBe(0);
      expect(await s.threads.deleteExpired(at(50), 10)).toBe(1);
      expect(await s.threads.get('ws_a', 'later')).not.toBeNull();
      expect(await s.threads.delete('ws_a', 'keep')).toBe(true);
      expect(await s.threads.delete('ws_a', 'keep')).toBe(false);
      await s.close();
    });
  });

  describe('contradictions', () => {
    async function pair(s: SqlStorage) {
      const a = memory('ws_a', 'I live in Paris', axisVector(DIMS, 0));
      const b = memory('ws_a', 'I moved to Berlin', axisVector(DIMS, 0, 0.3));
      await s.memories.insert([a, b]);
      return { a, b };
    }
    const contradiction = (a: string, b: string, overrides: Partial<Contradiction> = {}): Contradiction => ({
      id: id('ctr'),
      workspace_id: 'ws_a',
      memory_a_id: a,
      memory_b_id: b,
      contradiction_type: 'exclusive_value',
      confidence: 0.8,
      detection_method: 'rules',
      explanation: 'residence: paris vs berlin',
      detected_at: T0,
      resolved_at: null,
      resolution: null,
      merged_memory_id: null,
      ...overrides,
    });

    it('records a pair once in either order and lists the unresolved ones', async () => {
      const s = await fresh();
      const { a, b } = await pair(s);
      const record = contradiction(a.id, b.id);
      expect(await s.contradictions.insert(record)).toBe(true);
      expect(await s.contradictions.insert(contradiction(a.id, b.id))).toBe(false);
      expect(await s.contradictions.insert(contradiction(b.id, a.id))).toBe(false);
      expect(await s.contradictions.get('ws_a', record.id)).toEqual(record);
      expect(await s.contradictions.get('ws_b', record.id)).toBeNull();
      expect((await s.contradictions.listUnresolved('ws_a', 10)).map((c) => c.id)).toEqual([record.id]);
      expect(await s.contradictions.countUnresolved('ws_a')).toBe(1);
      expect(await s.contradictions.listUnresolved('ws_b', 10)).toEqual([]);
      await s.close();
    });

    it('records many as one by one in order: each pair once, over several statements', async () => {
      const s = await fresh();
      const ms = Array.from({ length: 30 }, (_, i) => memory('ws_a', `statement ${i}`, axisVector(DIMS, i % DIMS)));
      await s.memories.insert(ms);
      const [m0, m1, m2, m3] = ms.map((m) => m.id) as [string, string, string, string];
      await s.contradictions.insert(contradiction(m0, m1));
      const others: Contradiction[] = [];
      for (let i = 4; i < ms.length && others.length < 300; i++)
        for (let j = i + 1; j < ms.length && others.length < 300; j++) others.push(contradiction(ms[i]!.id, ms[j]!.id));
      const fresh23 = contradiction(m2, m3);
      const recorded = await s.contradictions.insertMany([
        contradiction(m1, m0), // recorded already, the other way round
        contradiction(m0, m1), // recorded already
        fresh23,
        contradiction(m3, m2), // the pair just before, the other way round
        contradiction(m2, m3),
        ...others,
      ]);
      expect(recorded.map((c) => c.id)).toEqual([fresh23.id, ...others.map((c) => c.id)]);
      expect(await s.contradictions.countUnresolved('ws_a')).toBe(302);
      expect(await s.contradictions.get('ws_a', others[299]!.id)).toEqual(others[299]);
      expect(await s.contradictions.insertMany([])).toEqual([]);
      await s.close();
    });

    it('resolves once, can be reopened, and goes with its memories', async () => {
      const s = await fresh();
      const { a, b } = await pair(s);
      const record = contradiction(a.id, b.id);
      await s.contradictions.insert(record);
      expect(await s.contradictions.claimResolution('ws_a', record.id, 'keep_a', at(5))).toMatchObject({
        resolution: 'keep_a',
        resolved_at: at(5),
      });
      expect(await s.contradictions.claimResolution('ws_a', record.id, 'keep_b', at(6))).toBeNull();
      expect(await s.contradictions.countUnresolved('ws_a')).toBe(0);
      expect(await s.contradictions.update('ws_a', record.id, { resolution: null, resolved_at: null })).toMatchObject({
        resolution: null,
      });
      expect(await s.contradictions.update('ws_a', record.id, { merged_memory_id: b.id })).toMatchObject({
        merged_memory_id: b.id,
      });
      await s.memories.hardDelete('ws_a', [a.id]);
      expect(await s.contradictions.get('ws_a', record.id)).toBeNull();
      await s.close();
    });
  });

  it('deletes threads, messages, contradictions and cards with their workspace', async () => {
    const s = await fresh();
    await s.threads.create(thread('ws_a', 't1'));
    await s.transaction((tx) => tx.threads.appendMessages('ws_a', 't1', [message('hello')]));
    const a = memory('ws_a', 'I live in Paris', axisVector(DIMS, 0));
    const b = memory('ws_a', 'I moved to Berlin', axisVector(DIMS, 0, 0.3));
    await s.memories.insert([a, b]);
    await s.contradictions.insert({
      id: id('ctr'),
      workspace_id: 'ws_a',
      memory_a_id: a.id,
      memory_b_id: b.id,
      contradiction_type: 'exclusive_value',
      confidence: 0.8,
      detection_method: 'rules',
      explanation: null,
      detected_at: T0,
      resolved_at: null,
      resolution: null,
      merged_memory_id: null,
    });
    await s.entities.putCard({ workspace_id: 'ws_a', entity_id: 'ana', card: {}, fingerprint: 'f', generated_at: T0 });
    await s.threads.create(thread('ws_b', 't1'));
    await s.transaction((tx) => tx.workspaces.delete('ws_a'));
    expect(await s.threads.get('ws_a', 't1')).toBeNull();
    expect((await s.threads.listMessages('ws_a', 't1', { order: 'asc', limit: 10, offset: 0 })).total).toBe(0);
    expect(await s.contradictions.countUnresolved('ws_a')).toBe(0);
    expect(await s.entities.getCard('ws_a', 'ana')).toBeNull();
    expect(await s.threads.get('ws_b', 't1')).not.toBeNull();
    await s.close();
  });

  describe('entity cards', () => {
    it('stores one card per entity and fingerprints the memories about it', async () => {
      const s = await fresh();
      const empty = await s.entities.subjectFingerprint('ws_a', 'ana');
      const m = memory('ws_a', 'Ana likes tea', axisVector(DIMS, 1), { subject_id: 'ana', updated_at: at(1) });
      await s.memories.insert([m, memory('ws_b', 'Ana elsewhere', axisVector(DIMS, 1), { subject_id: 'ana' })]);
      const one = await s.entities.subjectFingerprint('ws_a', 'ana');
      expect(one).not.toBe(empty);
      await s.memories.update('ws_a', m.id, { content: 'Ana likes green tea', updated_at: at(2) });
      const changed = await s.entities.subjectFingerprint('ws_a', 'ana');
      expect(changed).not.toBe(one);
      expect(await s.entities.subjectFingerprint('ws_a', 'ana')).toBe(changed);

      expect(await s.entities.getCard('ws_a', 'ana')).toBeNull();
      await s.entities.putCard({
        workspace_id: 'ws_a',
        entity_id: 'ana',
        card: { reflection: 'v1' },
        fingerprint: one,
        generated_at: at(1),
      });
      await s.entities.putCard({
        workspace_id: 'ws_a',
        entity_id: 'ana',
        card: { reflection: 'v2' },
        fingerprint: changed,
        generated_at: at(2),
      });
      expect(await s.entities.getCard('ws_a', 'ana')).toEqual({
        workspace_id: 'ws_a',
        entity_id: 'ana',
        card: { reflection: 'v2' },
        fingerprint: changed,
        generated_at: at(2),
      });
      expect(await s.entities.getCard('ws_b', 'ana')).toBeNull();
      await s.close();
    });
  });
});
