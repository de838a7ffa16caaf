import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, listRoutes, routeName } from '../support/routes.js';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'media', name: 'Media' });
  await api.post('/v1/memories', { workspace_id: 'media', content: 'The only memory here' });
});
afterAll(() => server.stop());

const contents = async () =>
  (await api.get('/v1/memories?workspace_id=media&limit=100')).body.memories.map((m: { content: string }) => m.content);

describe('a media type a route does not read is 415 with a JSON body', () => {
  it.each([
    ['text/plain', '{"data":{"memories":[{"content":"smuggled"}],"associations":[]}}'],
    ['application/xml', '<data><memories><content>smuggled</content></memories></data>'],
    ['application/x-www-form-urlencoded', 'content=smuggled'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.ndjson"\r\n\r\n{}\r\n--x--\r\n',
    ],
  ])('the import with %s: 415, nothing imported', async (type, body) => {
    const response = await api.raw('POST', '/v1/workspaces/media/import', body, { 'content-type': type });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body).toMatchObject({
      statusCode: 415,
      code: 'unsupported_media_type',
      message: expect.stringContaining(type.split(';')[0]!),
    });
    expect(await contents()).toEqual(['The only memory here']);
  });

  it('the import with a body and no Content-Type: 415; with neither: 422', async () => {
    const response = await memdClient(server.url).request('POST', '/v1/workspaces/media/import', {
      body: new Uint8Array(Buffer.from('{"type":"memory","data":{"content":"smuggled"}}')),
    });
    expect(response.status).toBe(415);
    expect(response.data).toMatchObject({ code: 'unsupported_media_type' });
    expect((await api.raw('POST', '/v1/workspaces/media/import')).status).toBe(422);
    expect(await contents()).toEqual(['The only memory here']);
  });

  it('every route that reads JSON refuses text/plain, NDJSON and forms alike, and nothing is stored', async () => {
    const routes = (await listRoutes(api)).filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const path = fillPath(route, (name) =>
        name === 'workspace_id' ? 'media' : name === '*' ? 'a.md' : 'missing-id',
      );
      const media = route.bodies['application/x-ndjson']
        ? ['text/plain', 'application/x-www-form-urlencoded']
        : ['text/plain', 'application/x-ndjson', 'application/x-www-form-urlencoded'];
      for (const type of media) {
        const response = await api.raw(route.method, path, '{"content":"smuggled","workspace_id":"media"}', {
          'content-type': type,
        });
        expect(response.status, `${routeName(route)} ${type}: ${JSON.stringify(response.body)}`).toBe(415);
        expect(response.body.code).toBe('unsupported_media_type');
      }
    }
    expect(await contents()).toEqual(['The only memory here']);
  });

  it('JSON where an upload (multipart) goes: 415 naming the form it takes', async () => {
    const response = await api.post('/v1/documents', { file: 'not a file' });
    expect(response.status).toBe(415);
    expect(response.body.message).toMatch(/multipart\/form-data/);
  });

  it('JSON with a charset parameter is JSON', async () => {
    const response = await api.raw(
      'POST',
      '/v1/memories',
      JSON.stringify({ workspace_id: 'media', content: 'Sent with a charset' }),
      { 'content-type': 'application/json; charset=utf-8' },
    );
    expect(response.status).toBe(201);
  });
});
