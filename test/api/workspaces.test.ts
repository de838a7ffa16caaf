import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  GoneError,
  NotFoundError,
  ValidationError,
  type MemdClient,
} from '../../packages/client/src/index.js';
import { ManualClock, failureOf, memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
const clock = new ManualClock();

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

describe('workspaces', () => {
  it('creates, reads, renames, lists and deletes', async () => {
    const created = await memd.workspaces.create.withResponse({ name: 'Research', settings: { lang: 'en' } });
    expect(created.status).toBe(201);
    const ws = created.data.workspace;
    expect(ws).toMatchObject({
      id: expect.stringMatching(/^ws_[0-9a-f]{16}$/),
      name: 'Research',
      settings: { lang: 'en' },
      tenant_id: 'default',
    });
    expect((await memd.workspaces.get(ws.id)).workspace).toEqual(ws);
    expect((await memd.workspaces.update(ws.id, { name: 'Research 2' })).workspace).toMatchObject({
      name: 'Research 2',
      settings: { lang: 'en' },
    });
    expect((await memd.workspaces.list()).workspaces.map((w) => w.id)).toContain(ws.id);
    expect((await memd.workspaces.delete.withResponse(ws.id)).status).toBe(204);
    expect(await failureOf(memd.workspaces.get(ws.id))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.workspaces.delete(ws.id))).toBeInstanceOf(NotFoundError);
  });

  it('accepts a chosen id once and validates input', async () => {
    expect((await memd.workspaces.create.withResponse({ id: 'project-x', name: 'X' })).status).toBe(201);
    expect(await failureOf(memd.workspaces.create({ id: 'project-x', name: 'X' }))).toBeInstanceOf(ConflictError);
    expect(await failureOf(memd.workspaces.create({ name: '' }))).toBeInstanceOf(ValidationError);
    expect(await failureOf(memd.workspaces.create({ name: 'x', id: 'has space' }))).toBeInstanceOf(ValidationError);
    expect(await failureOf(memd.workspaces.update('project-x', {}))).toBeInstanceOf(ValidationError);
    expect(await failureOf(memd.workspaces.update('nope', { name: 'y' }))).toBeInstanceOf(NotFoundError);
  });

  it('auto-creates _default on first use and refuses to delete it', async () => {
    expect((await memd.workspaces.get('_default')).workspace.id).toBe('_default');
    const refused = await failureOf(memd.workspaces.delete('_default'));
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
    expect((await memd.workspaces.get('_default')).workspace.id).toBe('_default');
  });

  it('delete removes memories, sessions, working memory, contexts and edges; nothing else', async () => {
    const ws = (await memd.workspaces.create({ name: 'doomed' })).workspace.id;
    const other = (await memd.workspaces.create({ name: 'survivor' })).workspace.id;
    const a = (await memd.memories.create({ workspace_id: ws, content: 'first doomed memory' })).memory;
    await memd.memories.create({ workspace_id: ws, content: 'second doomed memory', associations: [a.id] });
    const kept = (await memd.memories.create({ workspace_id: other, content: 'kept memory' })).memory;
    const session = (await memd.sessions.start({ workspace_id: ws })).session;
    await memd.sessions.workingMemory.set(session.id, { key: 'k', value: 1 });
    await memd.workspaces.contexts.create(ws, { name: 'ctx' });

    expect((await memd.workspaces.delete.withResponse(ws)).status).toBe(204);
    const storage = server.app.services.storage;
    expect(await storage.memories.count(ws, { statuses: ['active', 'archived', 'deleted'] })).toBe(0);
    expect(await storage.associations.count(ws)).toBe(0);
    expect(await storage.sessions.get(session.id)).toBeNull();
    expect(await storage.sessions.entries(session.id, clock.now().toISOString())).toEqual([]);
    expect(await storage.contexts.list(ws)).toEqual([]);
    expect(await failureOf(memd.memories.get(a.id, { workspace_id: ws }))).toBeInstanceOf(NotFoundError);
    expect((await memd.memories.get(kept.id, { workspace_id: other })).memory.id).toBe(kept.id);
  });

  it('describes its schema: 4 memory types, 63 relationship types, 13 subtypes', async () => {
    const schema = await memd.workspaces.schema('_default');
    expect(schema.memory_types).toEqual(['episodic', 'semantic', 'procedural', 'working']);
    expect(schema.relationship_types).toHaveLength(63);
    expect(new Set(schema.relationship_types).size).toBe(63);
    expect(schema.relationship_types).toEqual(
      expect.arrayContaining(['similar_to', 'refines', 'follows_temporally', 'referenced_by', 'parent_of']),
    );
    expect(schema.memory_subtypes).toHaveLength(13);
    expect(schema.memory_subtypes).toContain('inference');
    expect(schema.can_customize).toBe(false);
    expect(await failureOf(memd.workspaces.schema('nope'))).toBeInstanceOf(NotFoundError);
  });

  it('creates and lists contexts', async () => {
    const ws = (await memd.workspaces.create({ name: 'ctx' })).workspace.id;
    const created = await memd.workspaces.contexts.create.withResponse(ws, {
      name: 'Planning',
      description: 'Q3 planning',
    });
    expect(created.status).toBe(201);
    expect(created.data.context).toMatchObject({
      id: expect.stringMatching(/^ctx_/),
      name: 'Planning',
      description: 'Q3 planning',
      workspace_id: ws,
    });
    const listed = (await memd.workspaces.contexts.list(ws)).contexts.map((c) => c.id);
    expect(listed).toEqual(['_default', created.data.context.id]);
    expect(await failureOf(memd.workspaces.contexts.create(ws, { name: '' }))).toBeInstanceOf(ValidationError);
    expect(await failureOf(memd.workspaces.contexts.list('nope'))).toBeInstanceOf(NotFoundError);
  });
});

describe('workspace resolution', () => {
  it('takes the body first, then X-Workspace-ID, then the session, then _default', async () => {
    await memd.workspaces.create({ id: 'ws-body', name: 'b' });
    await memd.workspaces.create({ id: 'ws-header', name: 'h' });
    const session = (await memd.sessions.start({ workspace_id: 'ws-session' })).session;
    const where = async (as: MemdClient, workspace_id?: string) =>
      (
        await as.memories.create({
          content: `resolution probe ${Math.random()}`,
          ...(workspace_id && { workspace_id }),
        })
      ).memory.workspace_id;
    const inSession = memd.withSession(session.id);
    expect(await where(inSession.withWorkspace('ws-header'), 'ws-body')).toBe('ws-body');
    expect(await where(inSession.withWorkspace('ws-header'))).toBe('ws-header');
    expect(await where(inSession)).toBe('ws-session');
    expect(await where(memd)).toBe('_default');
  });

  it('gives memories written with X-Session-ID the session and its context', async () => {
    const session = (await memd.sessions.start({ workspace_id: 'ws-ctx', context_id: 'sprint-9', user_id: 'u7' }))
      .session;
    const memory = (await memd.withSession(session.id).memories.create({ content: 'Standup moved to 10:00.' })).memory;
    expect(memory).toMatchObject({
      workspace_id: 'ws-ctx',
      session_id: session.id,
      context_id: 'sprint-9',
      user_id: 'u7',
    });
  });

  it('refuses an unknown session (404) and an expired one (410) instead of falling back to _default', async () => {
    expect(await failureOf(memd.withSession('sess_unknown').memories.create({ content: 'lost' }))).toBeInstanceOf(
      NotFoundError,
    );
    const session = (await memd.sessions.start({ workspace_id: 'ws-exp', ttl_seconds: 60 })).session;
    clock.advance(61_000);
    const expired = await failureOf(memd.withSession(session.id).memories.create({ content: 'too late' }));
    expect(expired).toBeInstanceOf(GoneError);
    expect(expired.code).toBe('gone');
  });
});
