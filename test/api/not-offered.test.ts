import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/documents.js';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

describe('routes the reference’s clients call that memd does not offer', () => {
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('answers /v1/datasets/… with 501 and a message that says so', async () => {
    for (const [method, path] of [
      ['GET', '/v1/datasets'],
      ['POST', '/v1/datasets'],
      ['GET', '/v1/datasets/ds_1/rows'],
      ['DELETE', '/v1/datasets/ds_1'],
    ] as const) {
      const res = await api.raw(method, path, method === 'POST' ? {} : undefined);
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([501, 'not_implemented']);
      expect(res.body.message).toMatch(/not offered/);
    }
  });

  it('answers the image of a text page with 501, and an unknown page with 404', async () => {
    const upload = await uploadDocument(server.url, {
      name: 'a.txt',
      bytes: Buffer.from('Page text.'),
      type: 'text/plain',
    });
    await server.drainTasks();
    const document = upload.body.document.id as string;
    const page = (await api.get(`/v1/documents/${document}/pages`)).body.pages[0].id as string;
    const image = await api.get(`/v1/documents/${document}/pages/${page}/image`);
    expect([image.status, image.body.code]).toEqual([501, 'not_implemented']);
    expect(image.body.message).toContain('transcript');
    expect((await api.get(`/v1/documents/${document}/pages/page_0000000000000000/image`)).status).toBe(404);
  });
});
