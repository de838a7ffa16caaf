import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SWEEP_INTERVAL_MS } from '../../src/core/sessions/expiry.js';
import { GoneError, NotFoundError, type MemdClient } from '../../packages/client/src/index.js';
import { ManualClock, failureOf, memdClient, startServer, type TestServer } from '../support/server.js';

const clock = new ManualClock();
let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
  await server.drainTasks();
});
afterAll(() => server.stop());

const ENTRIES = { editor_preference: 'I always prefer dark mode in the editor', user_name: 'Ana', scratch: 'ok' };

/** Past the next expiry sweep: the sweep runs every SESSION_SWEEP_INTERVAL_MS on the durable queue. */
const afterNextSweep = () => clock.advance(SESSION_SWEEP_INTERVAL_MS + 1_000);

const committedBy = async (a: MemdClient, workspace: string, sessionId: string) =>
  (await a.memories.list({ workspace_id: workspace, session_id: sessionId, status: 'all' })).memories;

const listed = async (a: MemdClient, workspace: string) =>
  (await a.sessions.list({ workspace_id: workspace, include_expired: true })).sessions.map((s) => s.id);

describe('session expiry in the background', () => {
  it('auto-commits an expired session, then removes it', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'expiry-ws', ttl_seconds: 60, working_memory: ENTRIES }))
      .session;
    clock.advance(61_000);
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(GoneError);
    expect((await memd.sessions.list({ workspace_id: 'expiry-ws' })).sessions).toEqual([]);
    expect(await listed(memd, 'expiry-ws')).toEqual([session.id]);

    afterNextSweep();
    await server.drainTasks();
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(NotFoundError);
    expect(await listed(memd, 'expiry-ws')).toEqual([]);
    // The two entries above the default threshold became long-term memories of the session.
    expect((await committedBy(memd, 'expiry-ws', session.id)).map((m) => m.content).sort()).toEqual([
      'I always prefer dark mode in the editor',
      'user name: Ana',
    ]);
  });

  it('leaves a touched session alone', async () => {
    const session = (
      await memd.sessions.start({ workspace_id: 'expiry-touch', ttl_seconds: 60, working_memory: ENTRIES })
    ).session;
    clock.advance(50_000);
    await memd.sessions.touch(session.id, {}, { query: { extend_seconds: 3600 } });
    afterNextSweep();
    await server.drainTasks();
    expect((await memd.sessions.get(session.id)).session.id).toBe(session.id);
    expect(await committedBy(memd, 'expiry-touch', session.id)).toEqual([]);
  });

  it('creates nothing twice when a session committed by hand expires', async () => {
    const session = (
      await memd.sessions.start({ workspace_id: 'expiry-twice', ttl_seconds: 60, working_memory: ENTRIES })
    ).session;
    expect((await memd.sessions.commit(session.id)).memories_created).toBe(2);
    await memd.sessions.workingMemory.set(session.id, { key: 'deadline', value: 'The launch deadline is June 10' });
    clock.advance(61_000);
    afterNextSweep();
    await server.drainTasks();
    // Only the entry added after the manual commit is new; the rest is not written again.
    expect((await committedBy(memd, 'expiry-twice', session.id)).map((m) => m.content).sort()).toEqual([
      'I always prefer dark mode in the editor',
      'The launch deadline is June 10',
      'user name: Ana',
    ]);
    expect(await listed(memd, 'expiry-twice')).toEqual([]);
  });

  it('commits nothing when a session is deleted by hand, and keeps what was committed', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'expiry-delete', working_memory: ENTRIES })).session;
    await memd.sessions.commit(session.id, { categories: ['profile'] });
    await memd.sessions.end(session.id);
    afterNextSweep();
    await server.drainTasks();
    expect((await committedBy(memd, 'expiry-delete', session.id)).map((m) => m.content)).toEqual(['user name: Ana']);
  });
});

describe('session expiry across a restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'memd-expiry-'));
  const restartClock = new ManualClock();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('commits a session that expired while the server was down', async () => {
    const first = await startServer({ clock: restartClock, dataDir });
    const session = (
      await memdClient(first.url).sessions.start({
        workspace_id: 'restart-ws',
        ttl_seconds: 60,
        working_memory: ENTRIES,
      })
    ).session;
    await first.stop();

    restartClock.advance(3_600_000);
    const second = await startServer({ clock: restartClock, dataDir });
    try {
      const again = memdClient(second.url);
      await second.drainTasks();
      expect(await listed(again, 'restart-ws')).toEqual([]);
      expect(await committedBy(again, 'restart-ws', session.id)).toHaveLength(2);
      // Nothing is left to do: running the queue again writes nothing.
      await second.drainTasks();
      expect(await committedBy(again, 'restart-ws', session.id)).toHaveLength(2);
    } finally {
      await second.stop();
    }
  });
});
