import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

// Servers started one after another, each booting a Python interpreter (Pyodide): on a busy two-core machine a test
// took over the suite's minute, and the tests build on each other, so one timeout failed the rest.
vi.setConfig({ testTimeout: 180_000 });

/**
 * Checkpoints in the database: servers over one data directory, each stopped before the next starts (a SQLite data
 * directory belongs to one server at a time), stand for a restarted server; nodes serving one session at the same
 * time are tested over Postgres (multi-node.test.ts). The tests build on each other.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'memd-context-'));
const running: TestServer[] = [];

async function node(env: Record<string, string> = {}): Promise<{ server: TestServer; api: Client }> {
  // No spare interpreter: each server here runs one or two sessions before the next replaces it, and the spare
  // loaded after the first would be booted for nothing.
  const server = await startServer({
    dataDir,
    env: { MEMD_SANDBOX_CHECKPOINT_DELAY_MS: '0', MEMD_SANDBOX_SPARE: 'off', ...env },
  });
  running.push(server);
  return { server, api: client(server.url) };
}

async function stop(server: TestServer): Promise<void> {
  running.splice(running.indexOf(server), 1);
  await server.stop();
}

afterAll(async () => {
  for (const server of running) await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const result = async (api: Client, h: Record<string, string>, code: string) =>
  (await api.post('/v1/context/execute', { code }, h)).body;

describe('checkpoints in the database', () => {
  let b: Awaited<ReturnType<typeof node>>;
  let c: Awaited<ReturnType<typeof node>>;
  let h: Record<string, string>;

  it('the next server over the same database restores the variables of the last checkpoint', async () => {
    const a = await node();
    h = { 'x-session-id': (await a.api.post('/v1/sessions', { workspace_id: 'ctx-persist' })).body.session.id };
    await result(a.api, h, "records = [{'id': 1}, {'id': 2}]\nlabel = 'from A'\ngen = (i for i in range(3))");
    expect((await a.api.post('/v1/context/checkpoint', undefined, h)).status).toBe(204);
    const before = (await a.api.get('/v1/context/status', h)).body.metadata;
    await stop(a.server);

    b = await node();
    expect((await result(b.api, h, 'label, len(records)')).result).toBe('["from A", 2]');
    expect((await result(b.api, h, 'gen')).error).toMatch(/NameError/); // a generator cannot be pickled
    expect((await b.api.get('/v1/context/status', h)).body.metadata).toMatchObject({
      created_at: before.created_at,
      exec_count: before.exec_count + 2,
    });
  });

  it('a restart restores what was live at shutdown, without a checkpoint call', async () => {
    await result(b.api, h, "after = 'set after the checkpoint'");
    await stop(b.server);
    c = await node({ MEMD_SANDBOX_CHECKPOINT_DELAY_MS: '200' });
    expect((await result(c.api, h, 'after, label')).result).toBe('["set after the checkpoint", "from A"]');
  });

  it('changed variables reach the database shortly after the call, so a crash loses at most that much', async () => {
    const h2 = { 'x-session-id': (await c.api.post('/v1/sessions', { workspace_id: 'ctx-persist' })).body.session.id };
    await result(c.api, h2, "auto = 'saved on its own'");
    const stored = () => c.server.app.services.storage.sandboxCheckpoints.get(h2['x-session-id']);
    await vi.waitFor(async () => expect((await stored())?.metadata).toMatchObject({ saved: ['auto'] }), {
      timeout: 30_000,
      interval: 200,
    });
  });

  it('cleanup deletes the checkpoint: no server restores it', async () => {
    expect((await c.api.delete('/v1/context/cleanup', h)).status).toBe(204);
    await stop(c.server);
    const d = await node();
    expect((await d.api.get('/v1/context/status', h)).body).toMatchObject({ exists: false, metadata: null });
    expect((await result(d.api, h, 'after')).error).toMatch(/NameError/);
  });
});
