import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { client, startServer, type TestServer } from '../support/server.js';
import { exerciseEveryTool } from './scenario.js';
import { connectHttp, fakeModel, fakeModelEnv, spawnStdio, type SpawnedStdio } from './support.js';

let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeOpenAI({ respond: fakeModel });
});
afterAll(() => fake?.close());

describe('MCP over stdio, memd in the process (on a data directory)', () => {
  let dataDir: string;
  let mcp: SpawnedStdio;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'memd-mcp-stdio-'));
    mcp = await spawnStdio(['--data-dir', dataDir, '--workspace', 'stdio-local'], {
      MEMD_EMBEDDING_PROVIDER: 'hash',
      MEMD_TASK_POLL_MS: '50',
      ...fakeModelEnv(fake.baseUrl),
    });
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('calls every tool it lists, each doing its work (background work runs by itself)', async () => {
    await exerciseEveryTool(mcp, 'stdio-local');
    const listed = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toHaveLength(26);
    expect([...mcp.called].sort()).toEqual([...listed].sort());
  });

  it('uses the --workspace of the process when a call names none, and answers errors as tool errors', async () => {
    expect(
      (await mcp.call('remember', { content: 'The office plants need water on Fridays.' })).memory.workspace_id,
    ).toBe('stdio-local');
    expect(await mcp.fail('thread_get', { thread_id: 'thread_missing' })).toMatchObject({ code: 'not_found' });
  });

  it('writes its logs to stderr, and only protocol messages to stdout', () => {
    // The client would have failed on any stray line of stdout; stderr has the server's logs.
    expect(mcp.stderr()).not.toContain('"jsonrpc"');
  });

  it('has written to its data directory, which a server then serves', async () => {
    await mcp.close();
    const server = await startServer({ dataDir });
    try {
      const api = client(server.url);
      const listed = await api.post('/v1/memories/recall', {
        workspace_id: 'stdio-local',
        query: 'office plants water',
      });
      expect(listed.body.memories[0].content).toBe('The office plants need water on Fridays.');
    } finally {
      await server.stop();
    }
  });
});

describe('MCP over stdio, relayed to a running memd (--url)', () => {
  let server: TestServer;
  let mcp: SpawnedStdio;

  beforeAll(async () => {
    server = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    mcp = await spawnStdio(['--url', server.url]);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
  });

  it('calls every tool of the remote server, each doing its work', async () => {
    await exerciseEveryTool(mcp, 'stdio-relay', { settle: () => server.drainTasks() });
    const direct = await connectHttp(server.url);
    try {
      const remote = (await direct.client.listTools()).tools;
      expect((await mcp.client.listTools()).tools).toEqual(remote);
      expect([...mcp.called].sort()).toEqual(remote.map((tool) => tool.name).sort());
    } finally {
      await direct.close();
    }
  });

  it('relays resources, prompts and tool errors as the remote answers them', async () => {
    await mcp.call('remember', { content: 'The VPN certificate expires in June.', workspace_id: 'stdio-relay-2' });
    const recent = await mcp.client.readResource({ uri: 'memd://workspaces/stdio-relay-2/memories/recent' });
    expect(JSON.parse((recent.contents[0] as { text: string }).text).memories[0].content).toBe(
      'The VPN certificate expires in June.',
    );
    expect(
      (await mcp.client.getPrompt({ name: 'use_memory', arguments: { workspace_id: 'stdio-relay-2' } })).messages,
    ).toHaveLength(1);
    expect(await mcp.fail('forget', { memory_id: 'mem_missing' })).toMatchObject({ code: 'not_found' });
    // A protocol error reads as the remote wrote it: the SDK's prefix once, as an agent connected directly reads it.
    const direct = await connectHttp(server.url);
    try {
      const unknownTool = async (client: typeof direct.client) =>
        (await client.callTool({ name: 'nope', arguments: {} }).catch((error: Error) => error)) as Error;
      const [relayedError, directError] = [await unknownTool(mcp.client), await unknownTool(direct.client)];
      expect(directError.message).toBe("MCP error -32602: MCP error -32602: no tool named 'nope'");
      expect(relayedError.message).toBe(directError.message);
      const missing = async (client: typeof direct.client) =>
        (await client.readResource({ uri: 'memd://workspaces/stdio-nowhere/schema' }).catch((e: Error) => e)) as Error;
      const [relayedMissing, directMissing] = [await missing(mcp.client), await missing(direct.client)];
      expect(directMissing.message).toContain("not_found: workspace 'stdio-nowhere' was not found");
      expect(relayedMissing.message).toBe(directMissing.message);
    } finally {
      await direct.close();
    }
  });
});
