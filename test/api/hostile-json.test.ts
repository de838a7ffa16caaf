import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/documents.js';
import { client, memdClient, startServer, type ApiResponse, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

/** `{"a": … {"a": 1} …}`: `levels` objects, one in another. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{"a":1${'}'.repeat(levels)}`;
/** A body whose `field` holds `levels` nested objects: the body itself is one level more. */
const withDeep = (fields: Record<string, unknown>, field: string, levels: number): string =>
  JSON.stringify({ ...fields, [field]: '__DEEP__' }).replace('"__DEEP__"', nested(levels));

const send = (method: string, path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
  api.raw(method, path, body as string, { 'content-type': 'application/json', ...headers });

async function memoryCount(workspace = '_default'): Promise<number> {
  return (await api.get(`/v1/memories?workspace_id=${workspace}&limit=100`)).body.memories.length;
}

function expectRefused(response: ApiResponse, status: number, code: string, path?: string): void {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  expect(response.body).toMatchObject({ statusCode: status, code, message: expect.any(String) });
  if (path) expect(response.body.details).toEqual([expect.objectContaining({ path })]);
}

describe('JSON nested beyond MEMD_JSON_MAX_DEPTH (64) is refused before validation', () => {
  it.each([
    ['POST', '/v1/memories', { content: 'deep metadata' }, 'metadata'],
    ['POST', '/v1/memories/batch', { operations: [{ op: 'create', content: 'deep item' }] }, 'workspace_id'],
    ['PUT', '/v1/workspaces/_default', {}, 'settings'],
    ['POST', '/v1/applications', { name: 'deep config' }, 'config'],
    ['POST', '/v1/sessions', {}, 'working_memory'],
    ['POST', '/v1/threads', {}, 'metadata'],
  ])('%s %s with 5,000 levels in %s: 400 invalid_json, nothing stored', async (method, path, fields, field) => {
    const before = {
      memories: await memoryCount(),
      sessions: (await api.get('/v1/sessions')).body.total_count,
      apps: (await api.get('/v1/applications')).body.total_count,
    };
    expectRefused(await send(method, path, withDeep(fields, field, 5_000)), 400, 'invalid_json', '/body');
    expect({
      memories: await memoryCount(),
      sessions: (await api.get('/v1/sessions')).body.total_count,
      apps: (await api.get('/v1/applications')).body.total_count,
    }).toEqual(before);
    expect((await api.get('/v1/workspaces/_default')).body.workspace.settings).not.toHaveProperty('a');
  });

  it('the limit counts the whole body: 64 levels are stored and read back, 65 are refused', async () => {
    // The body is one level, metadata the other 63.
    const stored = await send('POST', '/v1/memories', withDeep({ content: 'sixty-four levels' }, 'metadata', 63));
    expect(stored.status).toBe(201);
    let level = (await api.get(`/v1/memories/${stored.body.memory.id}`)).body.memory.metadata;
    for (let depth = 1; depth < 63; depth++) level = level.a;
    expect(level).toEqual({ a: 1 });
    expectRefused(
      await send('POST', '/v1/memories', withDeep({ content: 'sixty-five levels' }, 'metadata', 64)),
      400,
      'invalid_json',
      '/body',
    );
  });

  it('an array nested 100,000 levels is refused as fast as any other body, and the server stays up', async () => {
    expectRefused(
      await send('POST', '/v1/memories/recall', '['.repeat(100_000) + ']'.repeat(100_000)),
      400,
      'invalid_json',
    );
    expect((await api.get('/health')).status).toBe(200);
  });

  it('brackets inside strings do not count', async () => {
    const created = await api.post('/v1/memories', { content: `${'[{'.repeat(200)} is how the parser test starts` });
    expect(created.status).toBe(201);
  });

  it('the depth is a setting', async () => {
    const shallow = await startServer({ env: { MEMD_JSON_MAX_DEPTH: '4' } });
    try {
      const c = client(shallow.url);
      expect((await c.post('/v1/memories', { content: 'x', metadata: { a: { b: 1 } } })).status).toBe(201);
      const refused = await c.post('/v1/memories', { content: 'y', metadata: { a: { b: { c: { d: 1 } } } } });
      expectRefused(refused, 400, 'invalid_json', '/body');
      expect(refused.body.message).toMatch(/deeper than 4 levels \(MEMD_JSON_MAX_DEPTH\)/);
    } finally {
      await shallow.stop();
    }
  });

  it('inside an upload form field, an NDJSON import line and an injected JSON value too', async () => {
    const upload = await uploadDocument(
      server.url,
      { name: 'a.txt', type: 'text/plain', bytes: 'hello' },
      { metadata: nested(5_000) },
    );
    expectRefused(upload, 400, 'invalid_json', '/metadata');
    expect((await api.get('/v1/documents')).body.total_count).toBe(0);

    await api.post('/v1/workspaces', { id: 'deep-import', name: 'Deep import' });
    const lines = [
      JSON.stringify({ type: 'memory', data: { content: 'a fine line' } }),
      `{"type":"memory","data":{"content":"a deep line","metadata":${nested(5_000)}}}`,
    ].join('\n');
    const imported = await api.raw('POST', '/v1/workspaces/deep-import/import', lines, {
      'content-type': 'application/x-ndjson',
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: 1, errors: 1 });
    expect(imported.body.details.join(' ')).toMatch(/line 2.*deeper than 64 levels/);

    const session = (await api.post('/v1/sessions', {})).body.session;
    const injected = await api.post(
      '/v1/context/inject',
      { key: 'v', value: nested(5_000), parse_json: true },
      { 'x-session-id': session.id },
    );
    expectRefused(injected, 400, 'invalid_json', '/body/value');
  });
});

describe('text no database can hold', () => {
  it('a body that is not UTF-8: 400, nothing stored', async () => {
    const before = await memoryCount();
    const bytes = Buffer.concat([Buffer.from('{"content":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from('"}')]);
    const response = await memdClient(server.url).request('POST', '/v1/memories', {
      headers: { 'content-type': 'application/json' },
      body: bytes,
    });
    expect(response.status).toBe(400);
    expect(response.data).toMatchObject({ code: 'invalid_json', message: expect.stringMatching(/UTF-8/) });
    expect(await memoryCount()).toBe(before);
  });

  it.each([
    ['a NUL in the content', '{"content":"before\\u0000after"}', '/body/content'],
    ['an unpaired surrogate in the content', '{"content":"half \\ud83d of an emoji"}', '/body/content'],
    ['a NUL in a metadata key', '{"content":"fine","metadata":{"k\\u0000":1}}', '/body/metadata/k\u0000'],
    ['an unpaired low surrogate in a tag', '{"content":"fine","tags":["\\udc00"]}', '/body/tags/0'],
  ])('%s: 400 naming the field, nothing stored', async (_, body, path) => {
    const before = await memoryCount();
    expectRefused(await send('POST', '/v1/memories', body), 400, 'invalid_json', path);
    expect(await memoryCount()).toBe(before);
  });

  it('a pair of surrogate escapes (an emoji) is text like any other', async () => {
    const created = await send('POST', '/v1/memories', '{"content":"the team mascot is \\ud83e\\udd8a"}');
    expect(created.status).toBe(201);
    expect(created.body.memory.content).toBe('the team mascot is 🦊');
  });

  it('NUL in a path or a query: 400 before any route reads it', async () => {
    expectRefused(await api.get('/v1/memories/mem_%00'), 400, 'bad_request');
    expectRefused(await api.get('/v1/memories?user_id=a%00b'), 400, 'bad_request');
  });

  it('a path that is not UTF-8 once decoded, and a path parameter longer than any id', async () => {
    expectRefused(await api.get('/v1/memories/%FF%FE'), 400, 'bad_request');
    expectRefused(await api.get(`/v1/memories/${'m'.repeat(300)}`), 414, 'uri_too_long');
  });

  it('a workspace id of the longest allowed length (128) is reachable by its path', async () => {
    const id = 'w'.repeat(128);
    expect((await api.post('/v1/workspaces', { id, name: 'Long id' })).status).toBe(201);
    expect((await api.get(`/v1/workspaces/${id}`)).status).toBe(200);
  });
});

describe('JSON that is not what a body is', () => {
  it.each([
    ['prototype poisoning', '{"content":"x","__proto__":{"admin":true}}'],
    ['constructor poisoning', '{"content":"x","constructor":{"prototype":{"admin":true}}}'],
    ['truncated JSON', '{"content":"x"'],
  ])('%s: 400 invalid_json, nothing stored', async (_, body) => {
    const before = await memoryCount();
    expectRefused(await send('POST', '/v1/memories', body), 400, 'invalid_json');
    expect(await memoryCount()).toBe(before);
  });

  it('a byte-order mark before the JSON is ignored (RFC 8259 allows it)', async () => {
    expect((await send('POST', '/v1/memories', '\ufeff{"content":"written by a Windows tool"}')).status).toBe(201);
  });

  it.each([
    ['an array', '[{"content":"x"}]'],
    ['a string', '"x"'],
    ['a number', '1'],
  ])('%s where an object goes: 422, nothing stored', async (_, body) => {
    const before = await memoryCount();
    expectRefused(await send('POST', '/v1/memories', body), 422, 'validation_error');
    expect(await memoryCount()).toBe(before);
  });
});
