import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { freshSchema } from '../support/postgres.js';
import { client, ManualClock, startServer, startTwoTeams, type Client, type TestServer } from '../support/server.js';
import { testBackend, testDatabaseUrl } from '../support/test-database.js';

const MASK = '********';
const TOKEN = 'ghp_supersecret_token_value_123';
const BEARER = 'Bearer sk-live-abcdef-987654';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'team-a', name: 'A' });
  await api.post('/v1/workspaces', { id: 'team-b', name: 'B' });
});
afterAll(() => server.stop());

async function create(c: Client, body: Record<string, unknown>) {
  const res = await c.post('/v1/mcp-servers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.mcp_server;
}

/** Every column of the entry's row, as stored. */
async function rawRow(s: TestServer, id: string) {
  return s.app.services.storage.sqlContext.db
    .selectFrom('mcp_servers')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('MCP servers: entries and secrets', () => {
  it('registers an entry with its transport inferred; env and headers are masked when read', async () => {
    const entry = await create(api, {
      name: 'github',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: TOKEN, DEBUG: '1' },
      description: 'GitHub',
    });
    expect(entry).toEqual({
      id: expect.stringMatching(/^mcp_[0-9a-f]{16}$/),
      tenant_id: 'default',
      name: 'github',
      description: 'GitHub',
      scope: 'project',
      workspace_id: '_default',
      user_id: null,
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      url: null,
      env: { GITHUB_TOKEN: MASK, DEBUG: MASK },
      headers: {},
      source_mode: 'server',
      enabled: true,
      metadata: {},
      last_synced_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await api.get(`/v1/mcp-servers/${entry.id}`)).body.mcp_server).toEqual(entry);
    const remote = await create(api, {
      name: 'search',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: BEARER },
    });
    expect(remote).toMatchObject({
      transport: 'http',
      command: null,
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: MASK },
    });
    expect(
      (await api.get('/v1/mcp-servers')).body.mcp_servers.map((e: { env: object; headers: object }) => [
        e.env,
        e.headers,
      ]),
    ).toEqual([
      [{ GITHUB_TOKEN: MASK, DEBUG: MASK }, {}],
      [{}, { Authorization: MASK }],
    ]);
  });

  it('stores env and header values encrypted (AES-256-GCM) with a key kept out of the database', async () => {
    const entry = await create(api, {
      name: 'vault',
      command: 'vault-mcp',
      env: { VAULT_TOKEN: TOKEN },
      headers: { Authorization: BEARER },
    });
    const row = await rawRow(server, entry.id);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(TOKEN);
    expect(stored).not.toContain('sk-live');
    expect(row.sealed_secrets).toMatch(/^v1\.[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(String(row.env_keys))).toEqual(['VAULT_TOKEN']);

    // SQLite keeps a generated key in a file beside the database; Postgres has no such directory and takes
    // MEMD_SECRET_KEY (test/support/server.ts sets one).
    if (testBackend() === 'sqlite') {
      const keyFile = join(server.dataDir, 'secret.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
      const meta = await server.app.services.storage.sqlContext.db.selectFrom('meta').selectAll().execute();
      expect(JSON.stringify(meta)).not.toContain(readFileSync(keyFile, 'utf8').trim());
    }

    // A sealed value copied onto another entry does not open there: each is bound to its entry.
    const other = await create(api, { name: 'vault-copy', command: 'x', env: { VAULT_TOKEN: 'other' } });
    await server.app.services.storage.sqlContext.db
      .updateTable('mcp_servers')
      .set({ sealed_secrets: row.sealed_secrets })
      .where('id', '=', other.id)
      .execute();
    const copied = await api.post('/v1/mcp-servers/resolve', { name: 'vault-copy' });
    expect(copied.status).toBe(503);
    expect(copied.body.code).toBe('secrets_unavailable');
    expect(JSON.stringify(copied.body)).not.toContain(TOKEN);
  });

  it('reveals secrets on resolve and on export with reveal_secrets=true only', async () => {
    await create(api, {
      name: 'notion',
      workspace_id: 'team-b',
      command: 'notion-mcp',
      args: ['--stdio'],
      env: { NOTION_KEY: TOKEN },
    });
    await create(api, {
      name: 'remote',
      workspace_id: 'team-b',
      transport: 'sse',
      url: 'https://sse.example.com',
      headers: { Authorization: BEARER },
      enabled: false,
    });

    const resolved = await api.post('/v1/mcp-servers/resolve', {
      names: ['notion', 'remote', 'absent'],
      workspace_id: 'team-b',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.mcp_server).toMatchObject({ name: 'notion', env: { NOTION_KEY: TOKEN } });
    expect(resolved.body.mcp_servers.map((e: { headers: object }) => e.headers)).toEqual([
      {},
      { Authorization: BEARER },
    ]);
    expect(resolved.body.not_found).toEqual(['absent']);

    const maskedExport = await api.get('/v1/mcp-servers/export?workspace_id=team-b');
    expect(maskedExport.body).toEqual({
      mcpServers: {
        notion: { transport: 'stdio', command: 'notion-mcp', args: ['--stdio'], env: { NOTION_KEY: MASK } },
        remote: { transport: 'sse', url: 'https://sse.example.com', headers: { Authorization: MASK }, disabled: true },
      },
    });
    const revealed = await api.get('/v1/mcp-servers/export?workspace_id=team-b&reveal_secrets=true');
    expect(revealed.body.mcpServers.notion.env).toEqual({ NOTION_KEY: TOKEN });
    expect(revealed.body.mcpServers.remote.headers).toEqual({ Authorization: BEARER });
    expect(JSON.stringify((await api.get('/v1/mcp-servers?workspace_id=team-b')).body)).not.toContain(TOKEN);
  });

  it('updates partially; a masked value sent back keeps its secret; PATCH works too', async () => {
    const entry = await create(api, {
      name: 'editable',
      workspace_id: 'team-a',
      command: 'run',
      env: { A: 'secret-a', B: 'secret-b' },
    });
    const read = (await api.get(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).body.mcp_server;
    const roundTrip = await api.put(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`, {
      env: { ...read.env, C: 'secret-c' },
      args: ['--fast'],
    });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.mcp_server).toMatchObject({
      command: 'run',
      args: ['--fast'],
      env: { A: MASK, B: MASK, C: MASK },
    });
    const secrets = async () =>
      (await api.post('/v1/mcp-servers/resolve', { name: 'editable', workspace_id: 'team-a' })).body.mcp_server.env;
    expect(await secrets()).toEqual({ A: 'secret-a', B: 'secret-b', C: 'secret-c' });

    expect(
      (
        await api.raw('PATCH', `/v1/mcp-servers/${entry.id}?workspace_id=team-a`, {
          env: { A: 'new-a' },
          description: 'patched',
        })
      ).status,
    ).toBe(200);
    expect(await secrets()).toEqual({ A: 'new-a' });
    expect(
      (await api.put(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`, { enabled: false })).body.mcp_server,
    ).toMatchObject({ enabled: false, description: 'patched', env: { A: MASK } });

    const unchanged = (await api.get(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).body.mcp_server;
    for (const body of [
      { env: { Z: MASK } },
      { transport: 'http' },
      { command: null },
      { url: 'ftp://x' },
      { env: { A: 1 } },
      { name: 'renamed' },
      { scope: 'global' },
      {},
    ]) {
      const res = await api.put(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await api.get(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).body.mcp_server).toEqual(unchanged);
    expect(await secrets()).toEqual({ A: 'new-a' });

    // Switching to HTTP with a URL, then back: the fields each transport needs.
    const remote = await api.put(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`, {
      transport: 'streamable-http',
      url: 'https://x.example.com/mcp',
    });
    expect(remote.body.mcp_server).toMatchObject({
      transport: 'streamable-http',
      url: 'https://x.example.com/mcp',
      command: 'run',
    });

    expect((await api.delete(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).status).toBe(204);
    expect((await api.get(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).status).toBe(404);
    expect((await api.delete(`/v1/mcp-servers/${entry.id}?workspace_id=team-a`)).status).toBe(404);
  });

  it('refuses bad entries and duplicate names in one scope', async () => {
    for (const body of [
      { name: 'x' },
      { name: 'x', transport: 'stdio', url: 'https://x' },
      { name: 'x', transport: 'sse', command: 'y' },
      { name: 'x', command: 'y', transport: 'websocket' },
      { name: 'has space', command: 'y' },
      { name: 'x', command: 'y', scope: 'local' },
      { name: 'x', command: 'y', env: { A: MASK } },
      { name: 'x', command: 'y', env: ['A'] },
      { name: 'x', command: 'y', cwd: '/tmp' },
    ]) {
      const res = await api.post('/v1/mcp-servers', { workspace_id: 'team-b', ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(
      (await api.get('/v1/mcp-servers?workspace_id=team-b&include_shadowed=true')).body.mcp_servers.map(
        (e: { name: string }) => e.name,
      ),
    ).not.toContain('x');
    await create(api, { name: 'twice', command: 'y', workspace_id: 'team-b' });
    expect((await api.post('/v1/mcp-servers', { name: 'twice', command: 'z', workspace_id: 'team-b' })).status).toBe(
      409,
    );
    await create(api, { name: 'twice', command: 'z', workspace_id: 'team-b', scope: 'local', user_id: 'ana' });
  });
});

describe('MCP servers: scopes and precedence', () => {
  it('picks local, then project, then user, then global for each name', async () => {
    const global = await create(api, { name: 'db', scope: 'global', command: 'db-global', env: { WHO: 'global' } });
    const user = await create(api, {
      name: 'db',
      scope: 'user',
      user_id: 'ana',
      command: 'db-user',
      env: { WHO: 'user' },
    });
    const project = await create(api, {
      name: 'db',
      workspace_id: 'team-a',
      command: 'db-project',
      env: { WHO: 'project' },
    });
    const local = await create(api, {
      name: 'db',
      scope: 'local',
      workspace_id: 'team-a',
      user_id: 'ana',
      command: 'db-local',
      env: { WHO: 'local' },
    });
    expect(local).toMatchObject({ scope: 'local', workspace_id: 'team-a', user_id: 'ana' });
    expect(user).toMatchObject({ scope: 'user', workspace_id: null, user_id: 'ana' });

    const winner = async (body: Record<string, unknown>) =>
      (await api.post('/v1/mcp-servers/resolve', { name: 'db', ...body })).body.mcp_server;
    expect(await winner({ workspace_id: 'team-a', user_id: 'ana' })).toMatchObject({
      id: local.id,
      env: { WHO: 'local' },
    });
    expect(await winner({ workspace_id: 'team-a', user_id: 'bob' })).toMatchObject({
      id: project.id,
      env: { WHO: 'project' },
    });
    expect(await winner({ workspace_id: 'team-b', user_id: 'ana' })).toMatchObject({
      id: user.id,
      env: { WHO: 'user' },
    });
    expect(await winner({ workspace_id: 'team-b' })).toMatchObject({ id: global.id, env: { WHO: 'global' } });

    const listed = async (query: string) =>
      (await api.get(`/v1/mcp-servers?${query}`)).body.mcp_servers.filter((e: { name: string }) => e.name === 'db');
    expect((await listed('workspace_id=team-a&user_id=ana')).map((e: { id: string }) => e.id)).toEqual([local.id]);
    const all = await listed('workspace_id=team-a&user_id=ana&include_shadowed=true');
    expect(
      all.map((e: { scope: string; shadowed: boolean; shadowed_by: string | null }) => [
        e.scope,
        e.shadowed,
        e.shadowed_by,
      ]),
    ).toEqual([
      ['local', false, null],
      ['project', true, local.id],
      ['user', true, local.id],
      ['global', true, local.id],
    ]);
    expect((await listed('workspace_id=team-a&scope=project')).map((e: { id: string }) => e.id)).toEqual([project.id]);
    expect((await listed('workspace_id=team-a&user_id=ana&scope=project')).map((e: { id: string }) => e.id)).toEqual(
      [],
    );
    expect((await listed('workspace_id=team-b')).map((e: { id: string }) => e.id)).toEqual([global.id]);
    expect((await api.get('/v1/mcp-servers/export?workspace_id=team-a&user_id=ana')).body.mcpServers.db.command).toBe(
      'db-local',
    );
  });

  it('keeps workspaces apart', async () => {
    const inA = await create(api, { name: 'private', workspace_id: 'team-a', command: 'p', env: { K: 'v' } });
    expect((await api.get(`/v1/mcp-servers/${inA.id}?workspace_id=team-b`)).status).toBe(404);
    expect((await api.put(`/v1/mcp-servers/${inA.id}?workspace_id=team-b`, { enabled: false })).status).toBe(404);
    expect((await api.delete(`/v1/mcp-servers/${inA.id}?workspace_id=team-b`)).status).toBe(404);
    expect(
      (
        await api.post(`/v1/mcp-servers/${inA.id}/sync?workspace_id=team-b`, {
          config: {},
          modified_at: new Date().toISOString(),
        })
      ).status,
    ).toBe(404);
    expect(
      (await api.post('/v1/mcp-servers/resolve', { name: 'private', workspace_id: 'team-b' })).body.mcp_server,
    ).toBeNull();
    expect((await api.get('/v1/mcp-servers/export?workspace_id=team-b')).body.mcpServers.private).toBeUndefined();
    expect((await api.get(`/v1/mcp-servers/${inA.id}`, { 'x-workspace-id': 'team-a' })).status).toBe(200);
  });
});

describe('MCP servers: import', () => {
  it('imports a configuration file at one scope, updates or skips what is there, all or nothing', async () => {
    await api.post('/v1/workspaces', { id: 'imports', name: 'I' });
    const file = {
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
        linear: { type: 'http', url: 'https://mcp.linear.app/mcp', headers: { Authorization: BEARER } },
        old: { command: 'old-server', env: { KEY: TOKEN }, disabled: true },
      },
    };
    const first = await api.post('/v1/mcp-servers/import', { ...file, workspace_id: 'imports' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ created: ['filesystem', 'linear', 'old'], updated: [], skipped: [] });
    expect(
      first.body.mcp_servers.map((e: { name: string; transport: string; enabled: boolean }) => [
        e.name,
        e.transport,
        e.enabled,
      ]),
    ).toEqual([
      ['filesystem', 'stdio', true],
      ['linear', 'http', true],
      ['old', 'stdio', false],
    ]);
    expect(JSON.stringify(first.body)).not.toContain(TOKEN);

    // Exported with secrets revealed and imported again: the same entries, updated in place.
    const exported = (await api.get('/v1/mcp-servers/export?workspace_id=imports&scope=project&reveal_secrets=true'))
      .body;
    expect(exported.mcpServers.old).toEqual({
      transport: 'stdio',
      command: 'old-server',
      args: [],
      env: { KEY: TOKEN },
      disabled: true,
    });
    const again = await api.post('/v1/mcp-servers/import', { ...exported, workspace_id: 'imports' });
    expect(again.body).toMatchObject({ created: [], updated: ['filesystem', 'linear', 'old'] });
    expect(again.body.mcp_servers.map((e: { id: string }) => e.id)).toEqual(
      first.body.mcp_servers.map((e: { id: string }) => e.id),
    );

    // A masked export imported over the same entries keeps their secrets.
    const masked = (await api.get('/v1/mcp-servers/export?workspace_id=imports&scope=project')).body;
    expect((await api.post('/v1/mcp-servers/import', { ...masked, workspace_id: 'imports' })).status).toBe(200);
    expect(
      (await api.post('/v1/mcp-servers/resolve', { name: 'old', workspace_id: 'imports' })).body.mcp_server.env,
    ).toEqual({ KEY: TOKEN });

    const skipped = await api.post('/v1/mcp-servers/import', {
      mcpServers: { filesystem: { command: 'other' }, fresh: { command: 'fresh' } },
      workspace_id: 'imports',
      on_conflict: 'skip',
    });
    expect(skipped.body).toMatchObject({ created: ['fresh'], updated: [], skipped: ['filesystem'] });
    expect(
      (await api.post('/v1/mcp-servers/resolve', { name: 'filesystem', workspace_id: 'imports' })).body.mcp_server
        .command,
    ).toBe('npx');
    // A server of the file is whole: without env, it has none.
    await api.post('/v1/mcp-servers/import', {
      mcpServers: { old: { command: 'old-server' } },
      workspace_id: 'imports',
    });
    expect(
      (await api.post('/v1/mcp-servers/resolve', { name: 'old', workspace_id: 'imports' })).body.mcp_server,
    ).toMatchObject({ env: {}, enabled: true });

    const names = async () =>
      (await api.get('/v1/mcp-servers?workspace_id=imports')).body.mcp_servers.map((e: { name: string }) => e.name);
    const before = await names();
    for (const body of [
      { mcpServers: { good: { command: 'ok' }, broken: { transport: 'sse' } } },
      { mcpServers: { good: { command: 'ok' }, 'bad name': { command: 'x' } } },
      { mcpServers: { good: { command: 'ok' }, masked: { command: 'x', env: { K: MASK } } } },
      { mcpServers: { good: { command: 'ok' }, odd: { command: 'x', type: 'sse', transport: 'stdio' } } },
      { mcpServers: { good: { command: 'ok', alwaysAllow: ['x'] } } },
      { servers: {} },
    ]) {
      const res = await api.post('/v1/mcp-servers/import', { ...body, workspace_id: 'imports' });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await names()).toEqual(before);
  });
});

describe('MCP servers with auth on', () => {
  let secured: TestServer;
  let admin: Client;
  let keyA: Client;

  beforeAll(async () => {
    ({ server: secured, admin, keyA } = await startTwoTeams());
  });
  afterAll(() => secured.stop());

  it('lets a workspace key manage its workspace’s entries and use global ones; global and user entries need the admin', async () => {
    const own = await create(keyA, { name: 'own', command: 'x', env: { K: 'mine' } });
    expect(own.workspace_id).toBe('team-a');
    await create(keyA, { name: 'own', scope: 'local', user_id: 'ana', command: 'y' });
    expect((await keyA.post('/v1/mcp-servers', { name: 'wide', scope: 'global', command: 'x' })).status).toBe(403);
    expect(
      (await keyA.post('/v1/mcp-servers', { name: 'wide', scope: 'user', user_id: 'ana', command: 'x' })).status,
    ).toBe(403);
    expect(
      (await keyA.post('/v1/mcp-servers/import', { mcpServers: { wide: { command: 'x' } }, scope: 'global' })).status,
    ).toBe(403);
    expect((await keyA.post('/v1/mcp-servers', { name: 'theirs', workspace_id: 'team-b', command: 'x' })).status).toBe(
      403,
    );

    const shared = await create(admin, { name: 'shared', scope: 'global', command: 'shared', env: { API_KEY: TOKEN } });
    expect((await keyA.post('/v1/mcp-servers/resolve', { name: 'shared' })).body.mcp_server.env).toEqual({
      API_KEY: TOKEN,
    });
    expect((await keyA.get(`/v1/mcp-servers/${shared.id}`)).body.mcp_server.env).toEqual({ API_KEY: MASK });
    expect((await keyA.put(`/v1/mcp-servers/${shared.id}`, { enabled: false })).status).toBe(403);
    expect((await keyA.delete(`/v1/mcp-servers/${shared.id}`)).status).toBe(403);
    expect(
      (await keyA.post(`/v1/mcp-servers/${shared.id}/sync`, { config: {}, modified_at: new Date().toISOString() }))
        .status,
    ).toBe(403);
    expect((await keyA.get('/v1/mcp-servers/export?workspace_id=team-b')).status).toBe(403);
    expect((await keyA.put(`/v1/mcp-servers/${own.id}`, { args: ['--x'] })).status).toBe(200);
  });
});

describe('MCP servers: two-way sync', () => {
  it('pushes the client’s change, pulls the server’s, and lets the source mode settle a conflict', async () => {
    const clock = new ManualClock();
    const s = await startServer({ clock });
    try {
      const c = client(s.url);
      const at = () => clock.now().toISOString();
      const entry = await create(c, { name: 'synced', command: 'v1', env: { K: 'one' }, source_mode: 'mirrored' });
      const sync = async (body: Record<string, unknown>) => {
        const res = await c.post(`/v1/mcp-servers/${entry.id}/sync`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body;
      };

      const first = await sync({ config: { command: 'v1', env: { K: 'one' } }, modified_at: at() });
      expect(first).toMatchObject({ action: 'in_sync', conflict: false, config: null, synced_at: at() });
      expect(first.mcp_server.last_synced_at).toBe(at());

      clock.advance(60_000);
      const pushed = await sync({
        config: { command: 'v2', env: { K: MASK, NEW: 'two' } },
        modified_at: at(),
        since: first.synced_at,
      });
      expect(pushed).toMatchObject({
        action: 'pushed',
        conflict: false,
        config: null,
        mcp_server: { command: 'v2', env: { K: MASK, NEW: MASK } },
      });
      expect((await c.post('/v1/mcp-servers/resolve', { name: 'synced' })).body.mcp_server.env).toEqual({
        K: 'one',
        NEW: 'two',
      });

      clock.advance(60_000);
      await c.put(`/v1/mcp-servers/${entry.id}`, { args: ['--server-side'] });
      clock.advance(60_000);
      const pulled = await sync({
        config: { command: 'v2', env: { K: 'one', NEW: 'two' } },
        modified_at: pushed.synced_at,
        since: pushed.synced_at,
      });
      expect(pulled).toMatchObject({
        action: 'pulled',
        conflict: false,
        config: { transport: 'stdio', command: 'v2', args: ['--server-side'], env: { K: 'one', NEW: 'two' } },
      });

      // Both changed since the last sync: mirrored takes the later change; server keeps the server's.
      clock.advance(60_000);
      await c.put(`/v1/mcp-servers/${entry.id}`, { command: 'server-edit' });
      clock.advance(60_000);
      const later = await sync({ config: { command: 'client-edit' }, modified_at: at(), since: pulled.synced_at });
      expect(later).toMatchObject({
        action: 'pushed',
        conflict: true,
        mcp_server: { command: 'client-edit', args: [], env: {} },
      });
      expect((await c.post('/v1/mcp-servers/resolve', { name: 'synced' })).body.mcp_server.env).toEqual({});
      clock.advance(60_000);
      await c.put(`/v1/mcp-servers/${entry.id}`, { source_mode: 'server', command: 'server-again' });
      clock.advance(60_000);
      const kept = await sync({ config: { command: 'client-again' }, modified_at: at(), since: later.synced_at });
      expect(kept).toMatchObject({ action: 'pulled', conflict: true, config: { command: 'server-again' } });

      expect(
        (await c.post(`/v1/mcp-servers/${entry.id}/sync`, { config: { transport: 'sse' }, modified_at: at() })).status,
      ).toBe(422);
      expect((await c.post(`/v1/mcp-servers/${entry.id}/sync`, { config: {}, modified_at: 'now' })).status).toBe(422);
      expect(
        (await c.post('/v1/mcp-servers/mcp_0000000000000000/sync', { config: {}, modified_at: at() })).status,
      ).toBe(404);
    } finally {
      await s.stop();
    }
  });
});

describe('MCP servers: the secret key', () => {
  it('uses MEMD_SECRET_KEY instead of a key file, and says so plainly when the key changed', async () => {
    const first = await startServer({ env: { MEMD_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') } });
    const dataDir = first.dataDir;
    let entryId: string;
    try {
      entryId = (await create(client(first.url), { name: 'keyed', command: 'x', env: { K: TOKEN } })).id;
      expect(() => statSync(join(dataDir, 'secret.key'))).toThrow();
      expect(JSON.stringify(await rawRow(first, entryId))).not.toContain(TOKEN);
    } finally {
      await first.app.close();
    }
    const second = await startServer({ dataDir, env: { MEMD_SECRET_KEY: Buffer.alloc(32, 9).toString('hex') } });
    try {
      const c = client(second.url);
      expect((await c.get(`/v1/mcp-servers/${entryId}`)).body.mcp_server.env).toEqual({ K: MASK });
      const resolved = await c.post('/v1/mcp-servers/resolve', { name: 'keyed' });
      expect(resolved.status).toBe(503);
      expect(resolved.body.message).toMatch(/MEMD_SECRET_KEY/);
    } finally {
      await second.stop();
      // Taken over from the first server, whose stop would have removed it: this test's to remove.
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(() => loadConfig({ MEMD_SECRET_KEY: 'too-short' })).toThrow(/MEMD_SECRET_KEY must be 32 bytes/);
  });

  it('on PostgreSQL without MEMD_SECRET_KEY refuses only what needs the key (503), and creates no key file', async () => {
    const s = await startServer({
      env: {
        MEMD_STORAGE: 'postgres',
        MEMD_DATABASE_URL: testDatabaseUrl(),
        MEMD_DATABASE_SCHEMA: freshSchema(),
        MEMD_SECRET_KEY: '',
      },
    });
    try {
      const c = client(s.url);
      const refused = await c.post('/v1/mcp-servers', { name: 'secretive', command: 'x', env: { K: 'v' } });
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        code: 'secrets_unavailable',
        message: expect.stringMatching(/MEMD_SECRET_KEY/),
      });
      const plain = await create(c, { name: 'plain', command: 'x' });
      expect((await c.post('/v1/mcp-servers/resolve', { name: 'plain' })).body.mcp_server.env).toEqual({});
      expect((await c.put(`/v1/mcp-servers/${plain.id}`, { env: { K: 'v' } })).status).toBe(503);
      expect((await c.put(`/v1/mcp-servers/${plain.id}`, { args: ['--ok'] })).status).toBe(200);
      expect((await c.get('/v1/mcp-servers')).body.mcp_servers.map((e: { name: string }) => e.name)).toEqual(['plain']);
      expect(() => statSync(join(s.dataDir, 'secret.key'))).toThrow();
    } finally {
      await s.stop();
    }
  });
});
