import { afterEach, describe, expect, test, vi } from 'vitest';
import { InMemoryCheckpointStore, type SandboxManager } from '../../src/sandbox/index.js';
import { createManager } from './support.js';

// Each test boots two to four Python interpreters (Pyodide, about two seconds each on an idle machine); on a busy
// two-core machine a boot took twenty, so these tests get three minutes instead of the suite's one.
vi.setConfig({ testTimeout: 180_000 });

const managers: SandboxManager[] = [];
function managerOn(store: InMemoryCheckpointStore, config: Parameters<typeof createManager>[0] = {}): SandboxManager {
  // No spare interpreter unless a test asks: each test starts managers of its own, and a spare loaded for each (and
  // again after each take) doubled the interpreters these tests boot.
  const { manager } = createManager({ ...config, config: { spare: 'off', ...config.config }, store });
  managers.push(manager);
  return manager;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe('checkpoint', () => {
  test('a new manager on the same store restores the variables and the metadata', async () => {
    const store = new InMemoryCheckpointStore();
    const first = managerOn(store);
    await first.execute('s', {
      code: "import json\nrecords = [{'id': 1}, {'id': 2}]\nlabel = 'kept'\nsquare = lambda x: x * x\ndef helper():\n    return 1\ngen = (i for i in range(3))",
    });
    await first.execute('s', { code: 'total = sum(r["id"] for r in records)' });
    const report = await first.checkpoint('s');
    expect(report.saved.sort()).toEqual(['label', 'records', 'total']);
    expect(report.skipped.map((entry) => entry.name).sort()).toEqual(['gen', 'helper', 'square']);
    expect(report.skipped.find((entry) => entry.name === 'gen')!.reason).toMatch(
      /TypeError: cannot pickle 'generator' object/,
    );
    const before = (await first.status('s')).metadata!;
    await first.close();

    const second = managerOn(store); // a restarted server, or another node on the same database
    expect((await second.execute('s', { code: 'label, total, records[1]["id"]' })).result).toBe('["kept", 3, 2]');
    expect((await second.execute('s', { code: 'helper' })).error).toMatch(/NameError/);
    const after = (await second.status('s')).metadata!;
    expect(after.created_at).toBe(before.created_at);
    expect(after.exec_count).toBe(before.exec_count + 2);
  });

  test('close() checkpoints live sandboxes, so a restart loses nothing', async () => {
    const store = new InMemoryCheckpointStore();
    const first = managerOn(store);
    await first.execute('closing', { code: "note = 'written before shutdown'" });
    await first.close();
    expect(store.has('closing')).toBe(true);
    const second = managerOn(store);
    expect((await second.execute('closing', { code: 'note' })).result).toBe('written before shutdown');
  });

  test('cleanup removes the sandbox and its checkpoint', async () => {
    const store = new InMemoryCheckpointStore();
    const manager = managerOn(store);
    await manager.execute('gone', { code: 'x = 1' });
    await manager.checkpoint('gone');
    expect(store.has('gone')).toBe(true);
    await manager.cleanup('gone');
    expect(store.has('gone')).toBe(false);
    expect(await manager.status('gone')).toMatchObject({ exists: false, metadata: null });
    expect((await manager.execute('gone', { code: 'x' })).error).toMatch(/NameError/);
    expect((await manager.status('gone')).metadata).toMatchObject({ exec_count: 1 });
  });
});

describe('checkpoint after a change', () => {
  test('changed variables are checkpointed shortly after the call, unchanged ones are not saved again', async () => {
    const store = new InMemoryCheckpointStore();
    const manager = managerOn(store, { config: { checkpointDelayMs: 200 } });
    const run = await manager.execute('later', { code: "note = 'saved without asking'" });
    expect(run.variables_changed).toEqual(['note']);
    await vi.waitFor(async () => expect((await store.load('later'))?.meta.saved).toEqual(['note']), {
      timeout: 10_000,
      interval: 50,
    });
    const first = (await store.load('later'))!.meta;

    await manager.execute('later', { code: 'print(note)' }); // reads only
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await store.load('later'))!.meta.saved_at).toBe(first.saved_at);

    await manager.setVariable('later', 'injected', [1, 2]);
    await vi.waitFor(async () => expect((await store.load('later'))?.meta.saved.sort()).toEqual(['injected', 'note']), {
      timeout: 10_000,
      interval: 50,
    });
    // A crash of the server now (no close, no eviction) would lose nothing: another manager restores it.
    const other = managerOn(store);
    expect((await other.execute('later', { code: 'note, injected' })).result).toBe('["saved without asking", [1, 2]]');

    // Cleanup cancels a checkpoint that was due.
    await manager.execute('dropped', { code: 'x = 1' });
    await manager.cleanup('dropped');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(store.has('dropped')).toBe(false);
  });
});

describe('one session served by several nodes in turn', () => {
  test('with sync checkpoints each call continues from the last, whichever node made it, cleanup included', async () => {
    const store = new InMemoryCheckpointStore();
    const a = managerOn(store, { config: { checkpoint: 'sync' } });
    const b = managerOn(store, { config: { checkpoint: 'sync' } });
    await a.execute('s', { code: "trail = ['a1']" });
    expect((await b.execute('s', { code: "trail = trail + ['b1']" })).error).toBeNull();
    // A's sandbox is still live with ['a1']; B has moved the session on since.
    expect((await a.execute('s', { code: "trail = trail + ['a2']\ntrail" })).result).toBe('["a1", "b1", "a2"]');
    expect((await b.execute('s', { code: 'trail' })).result).toBe('["a1", "b1", "a2"]');
    await b.setVariable('s', 'injected', { from: 'b' });
    expect((await a.status('s')).variables.sort()).toEqual(['injected', 'trail']);
    expect((await a.execute('s', { code: 'injected' })).result).toBe('{"from": "b"}');

    await b.cleanup('s');
    expect((await a.execute('s', { code: 'trail' })).error).toMatch(/NameError/);
  });

  test('a node that fell behind never overwrites the newer state: not by a checkpoint call, not at shutdown', async () => {
    const store = new InMemoryCheckpointStore();
    const a = managerOn(store);
    const b = managerOn(store, { config: { checkpoint: 'sync' } });
    await a.execute('s', { code: "owner = 'a'" });
    await a.checkpoint('s');
    await a.execute('s', { code: "late = 'only on a'" }); // not saved
    await b.execute('s', { code: "owner = 'b'" });
    const moved = await store.revision('s');

    expect((await a.checkpoint('s')).saved).toEqual([]);
    expect(await store.revision('s')).toBe(moved);
    await a.close();
    expect(await store.revision('s')).toBe(moved);
    const c = managerOn(store);
    expect((await c.execute('s', { code: 'owner' })).result).toBe('b');
    expect((await c.execute('s', { code: 'late' })).error).toMatch(/NameError/);
  });
});

describe('eviction', () => {
  test('beyond maxLive the least recently used sandbox is checkpointed, then restored on its next call', async () => {
    const store = new InMemoryCheckpointStore();
    const manager = managerOn(store, { config: { maxLive: 2 } });
    await manager.execute('a', { code: "value = 'a'" });
    await manager.execute('b', { code: "value = 'b'" });
    await manager.execute('a', { code: 'value' }); // b is now the least recently used
    await manager.execute('c', { code: "value = 'c'" });
    expect(manager.liveCount).toBe(2);
    expect(store.has('b')).toBe(true);
    expect(store.has('a')).toBe(false);

    expect((await manager.execute('b', { code: 'value' })).result).toBe('b'); // evicts a
    expect(store.has('a')).toBe(true);
    expect((await manager.execute('a', { code: 'value' })).result).toBe('a');
    expect(manager.liveCount).toBe(2);
    expect((await manager.status('c')).variables).toEqual(['value']);
  });

  test('an idle sandbox is checkpointed and stopped, and comes back transparently', async () => {
    const store = new InMemoryCheckpointStore();
    const manager = managerOn(store, { config: { idleEvictMs: 1_000 } });
    await manager.execute('idle', { code: "value = 'survives idling'" });
    expect(manager.liveCount).toBe(1);
    await vi.waitFor(() => expect(manager.liveCount).toBe(0), { timeout: 10_000, interval: 100 });
    expect(store.has('idle')).toBe(true);
    expect((await manager.execute('idle', { code: 'value' })).result).toBe('survives idling');
  });
});
