import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  GoneError,
  NotFoundError,
  ValidationError,
  type MemdClient,
} from '../../packages/client/src/index.js';
import { ManualClock, client, failureOf, memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
const clock = new ManualClock();

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

describe('sessions and working memory', () => {
  it('creates a session with its workspace and context, and serves its working memory', async () => {
    const created = await memd.sessions.start.withResponse({
      workspace_id: 'sess-ws',
      context_id: 'ctx-1',
      ttl_seconds: 120,
      metadata: { agent: 'a1' },
      working_memory: { goal: 'ship' },
    });
    expect(created.status).toBe(201);
    const session = created.data.session;
    expect(session).toMatchObject({
      id: expect.stringMatching(/^sess_[0-9a-f]{32}$/),
      workspace_id: 'sess-ws',
      context_id: 'ctx-1',
      working_memory: { goal: 'ship' },
      metadata: { agent: 'a1' },
    });
    expect(Date.parse(session.expires_at) - Date.parse(session.created_at)).toBe(120_000);
    expect(created.data.briefing).toBeNull();
    expect((await memd.workspaces.get('sess-ws')).workspace.id).toBe('sess-ws');
    expect((await memd.workspaces.contexts.list('sess-ws')).contexts.map((c) => c.id)).toContain('ctx-1');

    const entry = await memd.sessions.workingMemory.set.withResponse(session.id, {
      key: 'plan',
      value: { steps: [1, 2] },
      ttl_seconds: 30,
    });
    expect(entry.status).toBe(201);
    expect(entry.data).toMatchObject({ key: 'plan', value: { steps: [1, 2] }, ttl_seconds: 30 });
    expect(await memd.sessions.workingMemory.get(session.id)).toEqual({ goal: 'ship', plan: { steps: [1, 2] } });
    expect(await memd.sessions.workingMemory.get(session.id, { key: 'plan' })).toEqual({ plan: { steps: [1, 2] } });
    clock.advance(31_000);
    expect(await memd.sessions.workingMemory.get(session.id)).toEqual({ goal: 'ship' });
    expect(await failureOf(memd.sessions.workingMemory.get(session.id, { key: 'plan' }))).toBeInstanceOf(NotFoundError);
  });

  it('slides its expiry on touch and expires after its TTL', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'sess-ws', ttl_seconds: 60 })).session;
    clock.advance(50_000);
    const touched = await memd.sessions.touch(session.id, {}, { query: { extend_seconds: 300 } });
    expect(touched.expires_at).toBe(new Date(clock.now().getTime() + 300_000).toISOString());
    const viaBody = await memd.sessions.touch(session.id, { ttl_seconds: 120 });
    expect(viaBody.session.expires_at).toBe(new Date(clock.now().getTime() + 120_000).toISOString());
    clock.advance(121_000);
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(GoneError);
    const listed = async (expired: boolean) =>
      (await memd.sessions.list({ workspace_id: 'sess-ws', include_expired: expired })).sessions.map((s) => s.id);
    expect(await listed(false)).not.toContain(session.id);
    expect(await listed(true)).toContain(session.id);
  });

  /** A session of 60 s, 45 s into it, and a client working through it. */
  const fortyFiveSecondsIn = async () => {
    const session = (await memd.sessions.start({ workspace_id: 'sess-ws', ttl_seconds: 60 })).session;
    clock.advance(45_000);
    return { session, through: memd.withSession(session.id) };
  };

  it('slides its expiry when a memory is written through it', async () => {
    const { session, through } = await fortyFiveSecondsIn();
    await through.memories.create({ content: 'Activity keeps the session alive.' });
    clock.advance(45_000);
    expect((await memd.sessions.get(session.id)).session.id).toBe(session.id);
    clock.advance(16_000);
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(GoneError);
  });

  it('keeps its expiry when a call through it is refused or does nothing', async () => {
    const { session, through } = await fortyFiveSecondsIn();
    const refused = through.memories.create({ content: 'Linked to nothing.', associations: ['mem_nowhere'] });
    expect(await failureOf(refused)).toBeInstanceOf(ValidationError);
    const batch = await through.memories.batch({
      operations: [{ op: 'update', memory_id: 'mem_nowhere', importance: 1 }],
    });
    expect(batch).toMatchObject({ successful: 0, failed: 1 });
    expect((await memd.sessions.get(session.id)).session.expires_at).toBe(session.expires_at);
    clock.advance(16_000);
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(GoneError);
  });

  it('slides its expiry when a batch or a recall through it succeeds', async () => {
    const { session, through } = await fortyFiveSecondsIn();
    await through.memories.batch({ operations: [{ op: 'create', content: 'A batch keeps the session alive.' }] });
    clock.advance(45_000);
    await through.memories.recall({ query: 'what keeps the session alive?' });
    clock.advance(45_000);
    expect((await memd.sessions.get(session.id)).session.expires_at).toBe(
      new Date(clock.now().getTime() + 15_000).toISOString(),
    );
  });

  it('deletes a session but keeps the memories written in it', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'sess-ws' })).session;
    const memory = (await memd.withSession(session.id).memories.create({ content: 'Written during the session.' }))
      .memory;
    expect((await memd.sessions.end.withResponse(session.id)).status).toBe(204);
    expect(await failureOf(memd.sessions.get(session.id))).toBeInstanceOf(NotFoundError);
    expect((await memd.memories.get(memory.id, { workspace_id: 'sess-ws' })).memory.session_id).toBe(session.id);
    expect(await failureOf(memd.sessions.end(session.id))).toBeInstanceOf(NotFoundError);
  });

  it('refuses bad session input', async () => {
    expect(await failureOf(memd.sessions.start({ ttl_seconds: 59 }))).toBeInstanceOf(ValidationError);
    expect(await failureOf(memd.sessions.start({ ttl_seconds: 86_401 }))).toBeInstanceOf(ValidationError);
    const session = (await memd.sessions.start()).session;
    expect(await failureOf(memd.sessions.start({ session_id: session.id }))).toBeInstanceOf(ConflictError);
    // A body without its key: the client's types refuse it.
    expect((await client(server.url).post(`/v1/sessions/${session.id}/memory`, { value: 1 })).status).toBe(422);
    expect(await failureOf(memd.sessions.touch(session.id, {}, { query: { extend_seconds: 10 } }))).toBeInstanceOf(
      ValidationError,
    );
    expect(await failureOf(memd.sessions.workingMemory.set('sess_nope', { key: 'k', value: 1 }))).toBeInstanceOf(
      NotFoundError,
    );
  });
});
