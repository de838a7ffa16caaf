import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError, type MemdClient } from '../../packages/client/src/index.js';
import { client, failureOf, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
/** For envelopes the client's types refuse. */
let api: Client;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  api = client(server.url);
});
afterAll(() => server.stop());

describe('POST /v1/memories/batch', () => {
  it('runs creates, updates and deletes in order and reports each one', async () => {
    const existing = (await memd.memories.create({ content: 'batch target one' })).memory;
    const doomed = (await memd.memories.create({ content: 'batch target two' })).memory;
    const res = await memd.memories.batch.withResponse({
      operations: [
        { op: 'create', content: 'batch created A', tags: ['t'] },
        { op: 'create', memory: { content: 'batch created B (client shape)', importance: 0.7 } },
        { op: 'update', memory_id: existing.id, importance: 0.9 },
        { op: 'update', memory_id: existing.id, updates: { tags: ['nested'] } },
        { op: 'delete', memory_id: doomed.id },
        { op: 'update', memory_id: 'mem_missing', importance: 0.1 },
        { op: 'create', content: '' },
        { op: 'create', content: 'batch created A' },
      ],
    });
    expect(res.status).toBe(200);
    const body = res.data;
    expect(body).toMatchObject({ total_operations: 8, total_processed: 8, successful: 6, failed: 2 });
    expect(body.results.map((r) => [r.index, r.type, r.status])).toEqual([
      [0, 'create', 'success'],
      [1, 'create', 'success'],
      [2, 'update', 'success'],
      [3, 'update', 'success'],
      [4, 'delete', 'success'],
      [5, 'update', 'error'],
      [6, 'create', 'error'],
      [7, 'create', 'success'],
    ]);
    expect(body.results[5]).toMatchObject({
      success: false,
      memory_id: 'mem_missing',
      error: expect.stringContaining('not found'),
    });
    expect(body.results[6]!.error).toContain('content');
    expect(body.results[7]).toMatchObject({ action: 'skipped', memory_id: body.results[0]!.memory_id });
    expect(body.results[1]!.memory).toMatchObject({ content: 'batch created B (client shape)', importance: 0.7 });
    expect((await memd.memories.get(existing.id)).memory).toMatchObject({ importance: 0.9, tags: ['nested'] });
    expect((await memd.memories.get(doomed.id)).memory.status).toBe('deleted');
  });

  it('refuses a malformed envelope as a whole', async () => {
    expect(await failureOf(memd.memories.batch({ operations: [] }))).toBeInstanceOf(ValidationError);
    expect((await api.post('/v1/memories/batch', {})).status).toBe(422);
    expect((await api.post('/v1/memories/batch', { operations: [{ op: 'upsert', content: 'x' }] })).status).toBe(422);
    expect((await api.post('/v1/memories/batch', { operations: 'x' })).status).toBe(422);
    // A valid `action` beside a bad `op`: that item fails alone, named, and the others are done.
    const mixed = await api.post('/v1/memories/batch', {
      operations: [
        { action: 'create', op: 'bogus', content: 'never written' },
        { action: 'create', content: 'written beside a bad item' },
      ],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body.results.map((r: { status: string }) => r.status)).toEqual(['error', 'success']);
    expect(mixed.body.results[0].error).toContain('op: must be one of create, update, delete');
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ op: 'create' as const, content: `m${i}` }));
    expect(await failureOf(memd.memories.batch({ operations: tooMany }))).toBeInstanceOf(ValidationError);
  });

  it('stores a thousand memories in one call', async () => {
    const ws = (await memd.workspaces.create({ name: 'bulk' })).workspace.id;
    const operations = Array.from({ length: 1000 }, (_, i) => ({
      op: 'create' as const,
      content: `bulk memory ${i}: item ${i * 7919} of the ledger`,
    }));
    expect(await memd.memories.batch({ workspace_id: ws, operations })).toMatchObject({ successful: 1000, failed: 0 });
    expect((await memd.memories.list({ workspace_id: ws })).total_count).toBe(1000);
  });
});
