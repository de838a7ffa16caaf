import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';
import { connectHttp, spawnStdio, type McpTestClient } from './support.js';

const ADMIN_KEY = 'admin-secret-for-mcp-tests';

describe('MCP: the API’s keys and workspaces', () => {
  let server: TestServer;
  let admin: Client;
  let teamAKey: string;
  let teamA: McpTestClient;

  beforeAll(async () => {
    server = await startServer({ env: { MEMD_ADMIN_KEY: ADMIN_KEY } });
    admin = client(server.url, { authorization: `Bearer ${ADMIN_KEY}` });
    await admin.post('/v1/workspaces', { id: 'team-a', name: 'A' });
    await admin.post('/v1/workspaces', { id: 'team-b', name: 'B' });
    await admin.post('/v1/memories', { workspace_id: 'team-b', content: 'Team B ships the mobile app on Mondays.' });
    teamAKey = (await admin.post('/v1/api-keys', { name: 'a', workspaces: ['team-a'] })).body.api_key.key;
    teamA = await connectHttp(server.url, { authorization: `Bearer ${teamAKey}` });
  });
  afterAll(async () => {
    await teamA?.close();
    await server?.stop();
  });

  it('refuses a request without a key, or with a wrong one, with the API’s 401', async () => {
    await expect(connectHttp(server.url)).rejects.toThrow(/401[\s\S]*unauthorized/);
    await expect(connectHttp(server.url, { authorization: 'Bearer memd_not_a_key' })).rejects.toThrow(
      /401[\s\S]*invalid API key/,
    );
    const raw = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('accepts the key as X-API-Key too, and the admin key', async () => {
    const byHeader = await connectHttp(server.url, { 'x-api-key': teamAKey });
    const asAdmin = await connectHttp(server.url, { authorization: `Bearer ${ADMIN_KEY}` });
    try {
      expect(
        (await byHeader.call('remember', { content: 'Team A reviews pull requests before noon.' })).memory.workspace_id,
      ).toBe('team-a');
      expect((await asAdmin.call('recall', { query: 'mobile app', workspace_id: 'team-b' })).memories[0].content).toBe(
        'Team B ships the mobile app on Mondays.',
      );
    } finally {
      await byHeader.close();
      await asAdmin.close();
    }
  });

  it('a key scoped to one workspace works there by default, and cannot reach another by argument, header or record id', async () => {
    const own = (await teamA.call('remember', { content: 'Team A deploys from the main branch.' })).memory;
    expect(own.workspace_id).toBe('team-a');

    expect(await teamA.fail('recall', { query: 'mobile app', workspace_id: 'team-b' })).toMatchObject({
      code: 'forbidden',
    });
    expect(await teamA.fail('remember', { content: 'Injected into B.', workspace_id: 'team-b' })).toMatchObject({
      code: 'forbidden',
    });
    expect(await teamA.fail('export_workspace', { workspace_id: 'team-b' })).toMatchObject({ code: 'forbidden' });
    expect(await teamA.fail('session_start', { workspace_id: 'team-b' })).toMatchObject({ code: 'forbidden' });

    const headerB = await connectHttp(server.url, { authorization: `Bearer ${teamAKey}`, 'x-workspace-id': 'team-b' });
    try {
      expect(await headerB.fail('briefing')).toMatchObject({ code: 'forbidden' });
    } finally {
      await headerB.close();
    }

    // A record of team B is "not found" for team A's key, exactly like one that does not exist.
    const bMemory = (await admin.get('/v1/memories?workspace_id=team-b')).body.memories[0];
    expect(await teamA.fail('forget', { memory_id: bMemory.id })).toMatchObject({ code: 'not_found' });
    expect(await teamA.fail('update_memory', { memory_id: bMemory.id, content: 'Changed by A.' })).toMatchObject({
      code: 'not_found',
    });
    expect((await admin.get(`/v1/memories/${bMemory.id}?workspace_id=team-b`)).body.memory).toMatchObject({
      status: 'active',
      content: 'Team B ships the mobile app on Mondays.',
    });
    expect((await admin.get('/v1/memories?workspace_id=team-b')).body.total_count).toBe(1);
  });

  it('a refused tool call leaves no workspace behind', async () => {
    const asAdmin = await connectHttp(server.url, { authorization: `Bearer ${ADMIN_KEY}` });
    try {
      const refused = await asAdmin.fail('remember', {
        workspace_id: 'mcp-refused',
        content: 'Linked to a memory that is not there.',
        associations: ['mem_not_there'],
      });
      expect(refused.message).toContain('mem_not_there');
      expect((await admin.get('/v1/workspaces/mcp-refused')).status).toBe(404);
      await asAdmin.call('remember', { workspace_id: 'mcp-accepted', content: 'Written.' });
      expect((await admin.get('/v1/workspaces/mcp-accepted')).status).toBe(200);
    } finally {
      await asAdmin.close();
    }
  });

  it('lists and reads the resources of the key’s workspaces only', async () => {
    const uris = (await teamA.client.listResources()).resources.map((r) => r.uri);
    expect(uris).toEqual(['memd://workspaces/team-a/memories/recent', 'memd://workspaces/team-a/schema']);
    await expect(teamA.client.readResource({ uri: 'memd://workspaces/team-b/memories/recent' })).rejects.toThrow(
      /forbidden/,
    );
    await expect(teamA.client.readResource({ uri: 'memd://workspaces/team-b/schema' })).rejects.toThrow(/forbidden/);
    await expect(teamA.client.getPrompt({ name: 'use_memory', arguments: { workspace_id: 'team-b' } })).rejects.toThrow(
      /forbidden/,
    );
  });

  it('over stdio: the relay carries the key and its limits; a wrong key stops it at start', async () => {
    const relay = await spawnStdio(['--url', server.url, '--api-key', teamAKey]);
    try {
      expect((await relay.call('remember', { content: 'Team A pairs on Wednesdays.' })).memory.workspace_id).toBe(
        'team-a',
      );
      expect(await relay.fail('recall', { query: 'mobile app', workspace_id: 'team-b' })).toMatchObject({
        code: 'forbidden',
      });
    } finally {
      await relay.close();
    }
    await expect(spawnStdio(['--url', server.url, '--api-key', 'memd_wrong'])).rejects.toThrow(/invalid API key/);
  });
});
