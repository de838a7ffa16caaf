import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer } from '../support/process.js';
import { client } from '../support/server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'memd-stop-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A TCP connection to `url` that sends nothing, as a browser's preconnect or a load balancer's check leaves one. */
async function silentConnection(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

describe('a stop with connections open', () => {
  it('ends connections that carry no request and exits 0 within the shutdown timeout, having answered the calls made', async () => {
    // A forced stop (past MEMD_SHUTDOWN_TIMEOUT_MS) exits 1; Node alone waits 60 s for a connection that sent nothing.
    const server = await spawnServer({ MEMD_DATA_DIR: join(dataDir, 'data'), MEMD_SHUTDOWN_TIMEOUT_MS: '5000' });
    const silent = await silentConnection(server.url);
    let received = '';
    silent.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => silent.once('close', resolve));
    try {
      // Calls that leave keep-alive connections open behind them.
      const api = client(server.url);
      expect((await api.post('/v1/memories', { content: 'Written before the stop.' })).status).toBe(201);
      expect((await api.get('/v1/memories')).body.memories).toHaveLength(1);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    // Ended by the server without an answer: it had asked for nothing.
    await closed;
    expect(received).toBe('');
  });

  it('answers a request in flight when the stop comes, then exits 0', async () => {
    const server = await spawnServer({ MEMD_DATA_DIR: join(dataDir, 'in-flight'), MEMD_SHUTDOWN_TIMEOUT_MS: '5000' });
    const body = JSON.stringify({ content: 'Half sent when the stop came, whole after it.' });
    const socket = await silentConnection(server.url);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // `Expect: 100-continue`: the server says when it has read the headers, so the request is in flight when the
    // stop comes.
    const continued = new Promise<void>((resolve) => socket.on('data', () => answer.includes(' 100 ') && resolve()));
    socket.write(
      `POST /v1/memories HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    await continued;
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(body.slice(20));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
    expect(await server.exited).toBe(0);
  });
});
