import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { Session } from '../../src/storage/types.js';
import { workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:05:00.000Z';

const session = (id: string, workspaceId: string): Session => ({
  id,
  workspace_id: workspaceId,
  tenant_id: 'default',
  context_id: '_default',
  user_id: null,
  metadata: {},
  ttl_seconds: 3600,
  expires_at: '2026-01-01T01:00:00.000Z',
  created_at: T0,
  updated_at: T0,
});

/** Every byte value, so nothing in the path treats the data as text. */
const allBytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);

describe.each(storageBackends())('sandbox checkpoint storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(8);
    for (const id of ['ws_a', 'ws_b']) await storage.workspaces.create(workspace(id));
    await storage.sessions.create(session('sess_a', 'ws_a'));
    await storage.sessions.create(session('sess_b', 'ws_b'));
    return storage;
  }

  it('stores binary data and metadata in the session’s workspace, replaces them, deletes them', async () => {
    const s = await fresh();
    expect(await s.sandboxCheckpoints.get('sess_a')).toBeNull();
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, { saved: ['x'], exec_count: 2 }, T0, 'r1', null)).toBe(
      true,
    );
    const stored = await s.sandboxCheckpoints.get('sess_a');
    expect(stored).toEqual({
      session_id: 'sess_a',
      workspace_id: 'ws_a',
      data: allBytes,
      metadata: { saved: ['x'], exec_count: 2 },
      updated_at: T0,
      revision: 'r1',
    });
    expect(stored!.data).toBeInstanceOf(Uint8Array);

    const larger = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) % 251);
    expect(await s.sandboxCheckpoints.put('sess_a', larger, { saved: [] }, T1, 'r2', 'r1')).toBe(true);
    const replaced = (await s.sandboxCheckpoints.get('sess_a'))!;
    expect(Buffer.from(replaced.data).equals(Buffer.from(larger))).toBe(true);
    expect([replaced.metadata, replaced.updated_at]).toEqual([{ saved: [] }, T1]);

    // A view into a larger buffer stores only its own bytes.
    expect(await s.sandboxCheckpoints.put('sess_b', allBytes.subarray(10, 20), {}, T0, 'r1', null)).toBe(true);
    expect((await s.sandboxCheckpoints.get('sess_b'))!.data).toEqual(allBytes.slice(10, 20));

    expect(await s.sandboxCheckpoints.delete('sess_a')).toBe(true);
    expect(await s.sandboxCheckpoints.delete('sess_a')).toBe(false);
    expect(await s.sandboxCheckpoints.get('sess_a')).toBeNull();
    expect(await s.sandboxCheckpoints.get('sess_b')).not.toBeNull();
  });

  it('replaces only the revision it names, so a node that fell behind never overwrites a newer save', async () => {
    const s = await fresh();
    expect(await s.sandboxCheckpoints.revision('sess_a')).toBeNull();
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, { by: 'A' }, T0, 'rA', null)).toBe(true);
    expect(await s.sandboxCheckpoints.revision('sess_a')).toBe('rA');
    // A second "first" save loses to the one already there.
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, { by: 'late' }, T1, 'rX', null)).toBe(false);
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, { by: 'B' }, T1, 'rB', 'rA')).toBe(true);
    // A node still on rA is behind: its save is refused and rB stays.
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, { by: 'A again' }, T1, 'rC', 'rA')).toBe(false);
    expect(await s.sandboxCheckpoints.get('sess_a')).toMatchObject({ metadata: { by: 'B' }, revision: 'rB' });
    await s.sandboxCheckpoints.delete('sess_a');
    expect(await s.sandboxCheckpoints.revision('sess_a')).toBeNull();
    expect(await s.sandboxCheckpoints.put('sess_a', allBytes, {}, T1, 'rD', 'rB')).toBe(false);
  });

  it('stores nothing for a session that does not exist', async () => {
    const s = await fresh();
    expect(await s.sandboxCheckpoints.put('sess_unknown', allBytes, {}, T0, 'r1', null)).toBe(false);
    expect(await s.sandboxCheckpoints.get('sess_unknown')).toBeNull();
  });

  it('goes with its session and with its workspace', async () => {
    const s = await fresh();
    await s.sandboxCheckpoints.put('sess_a', allBytes, {}, T0, 'r1', null);
    await s.sandboxCheckpoints.put('sess_b', allBytes, {}, T0, 'r1', null);
    await s.sessions.delete('sess_a');
    expect(await s.sandboxCheckpoints.get('sess_a')).toBeNull();
    await s.workspaces.delete('ws_b');
    expect(await s.sandboxCheckpoints.get('sess_b')).toBeNull();
  });

  it('rolls back with the transaction it was written in', async () => {
    const s = await fresh();
    await expect(
      s.transaction(async (tx) => {
        await tx.sandboxCheckpoints.put('sess_a', allBytes, {}, T0, 'r1', null);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await s.sandboxCheckpoints.get('sess_a')).toBeNull();
  });
});
