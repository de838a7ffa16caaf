import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ForegroundTransport } from '../../src/mcp/foreground-transport.js';
import { ForegroundActivity } from '../../src/tasks/foreground.js';

/** A server whose one tool answers when released, over a ForegroundTransport, and a client connected to it. */
async function serving() {
  const foreground = new ForegroundActivity();
  let entered!: () => void;
  let release!: () => void;
  const called = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = new Server({ name: 'test', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, async () => {
    entered();
    await released;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(new ForegroundTransport(serverSide, foreground));
  const client = new Client({ name: 'agent', version: '1' });
  await client.connect(clientSide);
  opened.push(client);
  return { foreground, client, called, release };
}

const opened: Client[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) await client.close();
});

/** Whether background work would find a gap now: no request in flight within `ms`. */
const gap = (foreground: ForegroundActivity, ms = 20) => foreground.quiet(ms);

describe('MCP on stdio: an agent call is client activity background tasks give way to', () => {
  it('from the call’s arrival to its answer', async () => {
    const { foreground, client, called, release } = await serving();
    // The initialize exchange came and went.
    expect(await gap(foreground)).toBe(true);
    const call = client.callTool({ name: 'recall', arguments: {} });
    await called;
    expect(await gap(foreground)).toBe(false);
    release();
    expect((await call).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(await gap(foreground)).toBe(true);
    // Just served: a task waits for the next gap rather than running a batch.
    expect(foreground.servedWithin(1_000)).toBe(true);
  });

  it('a call the agent cancels is no longer in flight (it expects no answer)', async () => {
    const { foreground, client, called, release } = await serving();
    const abort = new AbortController();
    const call = client.callTool({ name: 'recall', arguments: {} }, undefined, { signal: abort.signal });
    await called;
    expect(await gap(foreground)).toBe(false);
    abort.abort('agent moved on');
    await expect(call).rejects.toThrow();
    await expect.poll(() => gap(foreground, 5)).toBe(true);
    release();
  });

  it('calls in flight when the agent goes away are no longer counted', async () => {
    const { foreground, client, called, release } = await serving();
    const call = client.callTool({ name: 'recall', arguments: {} }).catch(() => null);
    await called;
    expect(await gap(foreground)).toBe(false);
    await client.close();
    await call;
    await expect.poll(() => gap(foreground, 5)).toBe(true);
    release();
  });
});
