import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
  type MemdClient,
} from '../../packages/client/src/index.js';
import { client, failureOf, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
/** For bodies the client's types refuse. */
let api: Client;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  api = client(server.url);
});
afterAll(() => server.stop());

type NewMemory = Parameters<MemdClient['memories']['create']>[0];

const create = async (body: NewMemory) => {
  const { data, status } = await memd.memories.create.withResponse(body);
  expect(status, JSON.stringify(data)).toBe(201);
  return data.memory;
};
const contentsOf = (page: { memories: Array<{ content: string }> }) => page.memories.map((m) => m.content);

describe('POST /v1/memories', () => {
  it('stores a memory with every default of the Memory table', async () => {
    const memory = await create({ content: '  The staging database runs on port 5433.  ' });
    expect(memory).toMatchObject({
      id: expect.stringMatching(/^mem_[0-9a-f]{16}$/),
      workspace_id: '_default',
      tenant_id: 'default',
      context_id: '_default',
      user_id: null,
      content: 'The staging database runs on port 5433.',
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      type: 'semantic',
      importance: 0.5,
      tags: [],
      metadata: {},
      access_count: 0,
      decay_factor: 1,
      pinned: false,
      status: 'active',
      deleted_at: null,
      abstract: 'The staging database runs on port 5433.',
    });
    expect(new Date(memory.created_at).toISOString()).toBe(memory.created_at);
    expect((await memd.memories.get(memory.id)).memory).toEqual(memory);
  });

  it('classifies by rules when no type is given, and keeps a given type', async () => {
    expect((await create({ content: 'How to rotate the TLS certificate: the steps are in the runbook.' })).type).toBe(
      'procedural',
    );
    expect((await create({ content: 'Yesterday we shipped the billing migration.' })).type).toBe('episodic');
    expect((await create({ content: 'I am currently working on the parser refactor.' })).type).toBe('working');
    expect((await create({ content: 'Maria prefers dark roast coffee.' })).subtype).toBe('preference');
    expect((await create({ content: 'Yesterday was fine.', type: 'semantic', subtype: 'profile' })).type).toBe(
      'semantic',
    );
  });

  it('reads the event time from metadata', async () => {
    const memory = await create({
      content: 'Went hiking with Sam.',
      metadata: { session_date: '1:56 pm on 8 May, 2023' },
    });
    expect(memory.occurred_at).toBe('2023-05-08T13:56:00.000Z');
  });

  it('returns the existing memory for an exact duplicate (whitespace-insensitive) and stores nothing new', async () => {
    const first = await create({ content: 'Deploys happen on Tuesdays.' });
    const again = await memd.memories.create.withResponse({ content: 'Deploys   happen on Tuesdays.\n' });
    expect(again.status).toBe(201);
    expect(again.data).toMatchObject({ action: 'skipped', memory: { id: first.id } });
  });

  it('keeps the same text of two customers or two users apart, and finds each by its own filter', async () => {
    const settings = { deduplication: { merge_threshold: 0.7, update_threshold: 0.95 } };
    const ws = (await memd.workspaces.create({ name: 'dedup-attributed', settings })).workspace.id;
    const note = 'The customer is on the Pro plan.';
    const a = await memd.memories.create({ workspace_id: ws, content: note, subject_id: 'cust-a' });
    const b = await memd.memories.create({ workspace_id: ws, content: note, subject_id: 'cust-b' });
    expect([a.action, b.action]).toEqual(['created', 'created']);
    expect(b.memory).toMatchObject({ subject_id: 'cust-b', content: note });
    // The same customer's again is the duplicate; so is one batch's text said twice for one customer.
    const again = await memd.memories.create({ workspace_id: ws, content: note, subject_id: 'cust-a' });
    expect(again).toMatchObject({ action: 'skipped', memory: { id: a.memory.id } });
    const batch = await memd.memories.batch({
      workspace_id: ws,
      operations: [
        { op: 'create', content: 'I am vegetarian.', user_id: 'kim' },
        { op: 'create', content: 'I am vegetarian.', user_id: 'tom' },
        { op: 'create', content: 'I am vegetarian.', user_id: 'tom' },
      ],
    });
    expect(batch.results.map((r) => r.action)).toEqual(['created', 'created', 'skipped']);
    // A text extending another customer's is not merged into theirs.
    const extended = await memd.memories.create({
      workspace_id: ws,
      content: 'The customer is on the Pro plan, billed yearly.',
      subject_id: 'cust-c',
    });
    expect(extended.action).toBe('created');
    expect((await memd.memories.get(a.memory.id)).memory.content).toBe(note);
    const forB = await memd.memories.recall({ workspace_id: ws, query: 'plan', subject_id: 'cust-b' });
    expect(forB.memories.map((m) => m.id)).toEqual([b.memory.id]);
  });

  it('merges a memory that extends an existing one, and keeps contradicting and shorter ones apart', async () => {
    // The hash test embedder puts these pairs at 0.76-0.96: thresholds moved through workspace settings.
    const settings = { deduplication: { merge_threshold: 0.7, update_threshold: 0.95 } };
    const ws = (await memd.workspaces.create({ name: 'dedup', settings })).workspace.id;
    const base = await create({ workspace_id: ws, content: 'Priya likes hiking', tags: ['a'] });
    const merged = await memd.memories.create({
      workspace_id: ws,
      content: 'Priya likes hiking in the Alps',
      tags: ['b'],
    });
    expect(merged).toMatchObject({
      action: 'merged',
      memory: { id: base.id, content: 'Priya likes hiking in the Alps', tags: ['a', 'b'] },
    });
    // What it merged in is the text it held.
    expect(merged.memory.metadata.merged_from).toMatchObject([{ content_hash: base.content_hash }]);
    const reworded = await memd.memories.create({ workspace_id: ws, content: 'priya likes hiking in the alps!' });
    expect(reworded).toMatchObject({ action: 'updated', memory: { id: base.id } });
    const negated = await memd.memories.create({ workspace_id: ws, content: 'Priya does not like hiking in the Alps' });
    expect(negated.action).toBe('created');
    // A text that says less is no duplicate: it may be the correction ("every Tuesday" after "every second Tuesday"),
    // and merged into the longer text it would be found nowhere.
    const shorter = await memd.memories.create({ workspace_id: ws, content: 'Priya likes hiking!' });
    expect(shorter).toMatchObject({ action: 'created', memory: { content: 'Priya likes hiking!' } });
    expect((await memd.memories.get(base.id)).memory.content).toBe('priya likes hiking in the alps!');
    expect((await memd.memories.list({ workspace_id: ws })).total_count).toBe(3);
  });

  it('links the new memory to the memories named in associations', async () => {
    const target = await create({ content: 'The outage started at 09:12 UTC.' });
    const memory = await create({ content: 'Root cause: an expired certificate.', associations: [target.id] });
    const edges = (await memd.associations.list(memory.id, { direction: 'outgoing' })).associations;
    expect(edges.map((e) => [e.target_id, e.relationship])).toEqual([[target.id, 'related_to']]);
    const bad = await failureOf(
      memd.memories.create({ content: 'Links to nothing.', associations: ['mem_0000000000000000'] }),
    );
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.details[0]!.path).toBe('/associations');
  });

  it('refuses bad input with a 4xx JSON body and stores nothing', async () => {
    const before = (await memd.memories.list({ status: 'all' })).total_count;
    // Bodies the client's types would refuse go untyped.
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, '/body/content'],
      [{ content: '   ' }, 422, '/body/content'],
      [{ content: 7 }, 422, '/body/content'],
      [{ content: 'x', importance: 1.5 }, 422, '/body/importance'],
      [{ content: 'x', importance: '0.5' }, 422, '/body/importance'],
      [{ content: 'x', type: 'dream' }, 422, '/body/type'],
      [{ content: 'x', tags: 'one' }, 422, '/body/tags'],
      [{ content: 'x', metadata: [] }, 422, '/body/metadata'],
      [{ content: 'x', imporance: 0.5 }, 422, '/body/imporance'],
      [{ content: 'x', workspace_id: 'no such workspace!' }, 422, '/body/workspace_id'],
    ];
    for (const [body, status, path] of cases) {
      const res = await api.post('/v1/memories', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({
        statusCode: status,
        error: expect.any(String),
        message: expect.any(String),
        code: 'validation_error',
      });
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const malformed = await api.raw('POST', '/v1/memories', '{"content": ', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('invalid_json');
    const wrongType = await api.raw('POST', '/v1/memories', 'content=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(wrongType.status).toBe(415);
    const tooBig = await failureOf(memd.memories.create({ content: 'x'.repeat(11 * 1024 * 1024) }));
    expect(tooBig).toBeInstanceOf(PayloadTooLargeError);
    expect(tooBig.code).toBe('payload_too_large');
    expect((await memd.memories.list({ status: 'all' })).total_count).toBe(before);
  });
});

describe('GET, PUT, DELETE /v1/memories/{id}', () => {
  it('changes only the fields given and re-derives what depends on content', async () => {
    const memory = await create({
      content: 'The cache TTL is 60 seconds.',
      tags: ['cache'],
      metadata: { source: 'runbook' },
    });
    const res = await memd.memories.update.withResponse(memory.id, { importance: 0.9, pinned: true });
    expect(res.status).toBe(200);
    expect(res.data.memory).toMatchObject({
      content: memory.content,
      tags: ['cache'],
      metadata: { source: 'runbook' },
      importance: 0.9,
      pinned: true,
    });
    const changed = (await memd.memories.update(memory.id, { content: 'The cache TTL is 120 seconds.' })).memory;
    expect(changed.content_hash).not.toBe(memory.content_hash);
    expect(changed.abstract).toBe('The cache TTL is 120 seconds.');
    expect(await failureOf(memd.memories.update(memory.id, { importance: -1 }))).toBeInstanceOf(ValidationError);
    expect((await api.put(`/v1/memories/${memory.id}`, { owner: 'x' })).status).toBe(422);
    expect(await failureOf(memd.memories.update('mem_doesnotexist', { importance: 0.1 }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('archives and restores through status', async () => {
    const memory = await create({ content: 'An old project codename was Falcon.' });
    const archived = (await memd.memories.update(memory.id, { status: 'archived' })).memory;
    expect(archived).toMatchObject({ status: 'archived', archived_at: expect.any(String) });
    expect((await memd.memories.update(memory.id, { status: 'active' })).memory).toMatchObject({
      status: 'active',
      archived_at: null,
    });
  });

  it('soft-deletes by default (record kept) and hard-deletes on request', async () => {
    const memory = await create({ content: 'Temporary note about the demo.' });
    expect((await memd.memories.delete.withResponse(memory.id)).status).toBe(204);
    expect((await memd.memories.get(memory.id)).memory).toMatchObject({
      status: 'deleted',
      deleted_at: expect.any(String),
    });
    expect((await memd.memories.list()).memories.map((m) => m.id)).not.toContain(memory.id);
    expect(await failureOf(memd.memories.update(memory.id, { importance: 0.2 }))).toBeInstanceOf(ConflictError);
    expect((await memd.memories.delete.withResponse(memory.id, { hard: true })).status).toBe(204);
    expect(await failureOf(memd.memories.get(memory.id))).toBeInstanceOf(NotFoundError);
    expect(await failureOf(memd.memories.delete(memory.id))).toBeInstanceOf(NotFoundError);
    expect((await api.delete(`/v1/memories/${memory.id}?hard=maybe`)).status).toBe(422);
  });

  it('decays importance by the rate, never below zero, and leaves pinned memories alone', async () => {
    const memory = await create({ content: 'Decay me.', importance: 0.25 });
    expect((await memd.memories.decay(memory.id)).memory.importance).toBeCloseTo(0.15);
    expect((await memd.memories.decay(memory.id, { decay_rate: 0.5 })).memory.importance).toBe(0);
    const pinned = await create({ content: 'Never forget me.', importance: 0.8, pinned: true });
    expect((await memd.memories.decay(pinned.id, { decay_rate: 0.5 })).memory.importance).toBe(0.8);
    expect(await failureOf(memd.memories.decay(memory.id, { decay_rate: 2 }))).toBeInstanceOf(ValidationError);
  });
});

describe('GET /v1/memories', () => {
  it('pages newest first with a cursor and filters', async () => {
    const ws = (await memd.workspaces.create({ name: 'listing' })).workspace.id;
    for (let i = 0; i < 5; i++)
      await create({
        workspace_id: ws,
        content: `list item number ${i}`,
        tags: i % 2 ? ['odd'] : ['even'],
        user_id: i < 2 ? 'u1' : 'u2',
      });
    const page1 = await memd.memories.list({ workspace_id: ws, limit: 2 });
    expect(contentsOf(page1)).toEqual(['list item number 4', 'list item number 3']);
    expect(page1.total_count).toBe(5);
    const page2 = await memd.memories.list({ workspace_id: ws, limit: 2, cursor: page1.next_cursor! });
    expect(contentsOf(page2)).toEqual(['list item number 2', 'list item number 1']);
    const even = await memd.memories.list({ workspace_id: ws, tags: ['even'], user_id: 'u2' });
    expect(contentsOf(even)).toEqual(['list item number 4', 'list item number 2']);
    expect(await failureOf(memd.memories.list({ workspace_id: ws, limit: 0 }))).toBeInstanceOf(ValidationError);
    // A cursor no page gave is refused, not read as the first page again (a client following cursors would loop).
    for (const cursor of ['!!!not-base64', Buffer.from('{"a":1}').toString('base64url')])
      expect(await failureOf(memd.memories.list({ workspace_id: ws, limit: 2, cursor }))).toBeInstanceOf(
        ValidationError,
      );
    expect(await failureOf(memd.memories.list({ workspace_id: ws, created_after: 'yesterday' }))).toBeInstanceOf(
      ValidationError,
    );
  });
});
