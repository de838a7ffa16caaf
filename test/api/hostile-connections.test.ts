import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

/** What the server answers on a raw connection after `request` is sent, until it closes the connection. */
async function rawExchange(url: string, request: string): Promise<{ answer: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const started = performance.now();
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.write(request);
  await new Promise<void>((resolve, reject) => {
    socket.on('close', () => resolve());
    socket.on('error', reject);
    // A server that never closes the connection fails the test, rather than hanging it.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 15 s; received: ${answer}`));
    }, 15_000);
  });
  return { answer, closedAfterMs: performance.now() - started };
}

const statusOf = (answer: string): number => Number(answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
const bodyOf = (answer: string): Record<string, unknown> => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('hostile connections', () => {
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer({ env: { MEMD_REQUEST_TIMEOUT_SECONDS: '1' } });
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('a body announced and never sent: 408 in the error body once the request timeout passes, connection closed', async () => {
    const { answer, closedAfterMs } = await rawExchange(
      server.url,
      'POST /v1/memories HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"con',
    );
    expect(statusOf(answer)).toBe(408);
    expect(answer).toMatch(/\r\nContent-Type: application\/json\r\n/i);
    expect(bodyOf(answer)).toMatchObject({ statusCode: 408, code: 'request_timeout' });
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect((await api.get('/v1/memories')).body.memories).toEqual([]);
  });

  it('an answer read for longer than the timeout is not cut: the timeout is for receiving the request', async () => {
    // About 4 MB: more than the sockets' buffers hold, so the server is still writing while the reader pauses.
    for (let part = 0; part < 4; part++) {
      const written = await api.post('/v1/memories/batch', {
        workspace_id: 'slow-reader',
        operations: Array.from({ length: 250 }, (_, i) => ({
          op: 'create',
          content: `Memory ${part * 250 + i} of a workspace exported to a reader that pauses: ${'words '.repeat(650)}`,
        })),
      });
      expect(written.status).toBe(200);
    }
    const response = await fetch(`${server.url}/v1/workspaces/slow-reader/export`);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let text = new TextDecoder().decode((await reader.read()).value);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (let part = await reader.read(); !part.done; part = await reader.read())
      text += new TextDecoder().decode(part.value);
    expect(text.length).toBeGreaterThan(4_000_000);
    expect(text).toContain('Memory 999 of a workspace');
  });

  it('malformed HTTP and oversized headers get the error body too', async () => {
    const malformed = await rawExchange(server.url, 'GET /v1/memories HTTP/1.1\r\nHost x\r\n\r\n');
    expect(statusOf(malformed.answer)).toBe(400);
    expect(bodyOf(malformed.answer)).toMatchObject({ statusCode: 400, code: 'bad_request' });

    const oversized = await rawExchange(
      server.url,
      `GET /v1/memories HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(statusOf(oversized.answer)).toBe(431);
    expect(bodyOf(oversized.answer)).toMatchObject({ statusCode: 431, code: 'headers_too_large' });
  });

  it('a compressed body is refused, 415, and nothing is written; identity is the body as sent', async () => {
    const body = JSON.stringify({ workspace_id: 'encoded', content: 'Sent with a coding the server does not read.' });
    const refused = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body,
    });
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({
      code: 'unsupported_media_type',
      message: expect.stringContaining('gzip'),
    });
    expect((await api.get('/v1/workspaces/encoded')).status).toBe(404);

    const plain = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
      body,
    });
    expect(plain.status).toBe(201);
  });

  it('OPTIONS without preflight headers is answered as a preflight, not with a text/plain 400', async () => {
    const response = await fetch(`${server.url}/v1/memories`, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
  });
});
