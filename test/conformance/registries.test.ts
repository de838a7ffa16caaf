import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { Application, DataProvider, Skill, SkillFile } from '../../src/storage/types.js';
import { id, mcpServer as mcp, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

const application = (overrides: Partial<Application> = {}): Application => ({
  id: id('app'),
  tenant_id: 'default',
  name: 'Assistant',
  description: null,
  app_type: 'generic',
  enabled: true,
  config: {},
  metadata: {},
  created_at: T0,
  updated_at: T0,
  ...overrides,
});

const skill = (
  name: string,
  owner: Pick<Skill, 'scope' | 'workspace_id' | 'user_id'>,
  overrides: Partial<Skill> = {},
): Omit<Skill, 'manifest'> => ({
  id: id('skill'),
  tenant_id: 'default',
  name,
  version: null,
  description: null,
  source_mode: 'server',
  metadata: {},
  created_at: T0,
  updated_at: T0,
  ...owner,
  ...overrides,
});

function file(path: string, text: string, updatedAt = T0): SkillFile {
  const content = Buffer.from(text, 'utf8');
  return {
    path,
    content,
    size: content.length,
    sha256: createHash('sha256').update(content).digest('hex'),
    created_at: T0,
    updated_at: updatedAt,
  };
}

const provider = (workspaceId: string, overrides: Partial<DataProvider> = {}): DataProvider => ({
  id: id('dp'),
  workspace_id: workspaceId,
  name: 'notes',
  provider_type: 'local',
  connection_args: { path: '/notes' },
  sealed_args: null,
  schedule: null,
  metadata: {},
  last_synced_at: null,
  created_at: T0,
  updated_at: T0,
  ...overrides,
});

describe.each(storageBackends())('registry storage conformance: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(8);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  it('applications: round-trip, partial update, paging, links with overrides, listing by link', async () => {
    const s = await fresh();
    const first = application({
      name: 'First',
      description: 'd',
      app_type: 'agent',
      enabled: false,
      config: { model: { name: 'x' } },
      metadata: { k: 1 },
    });
    const second = application({ name: 'Second', created_at: at(1), updated_at: at(1) });
    await s.applications.create(first);
    await s.applications.create(second);
    expect(await s.applications.get(first.id)).toEqual(first);
    expect(await s.applications.update(first.id, { enabled: true, config: { a: [1] }, updated_at: at(2) })).toEqual({
      ...first,
      enabled: true,
      config: { a: [1] },
      updated_at: at(2),
    });
    expect(await s.applications.update('app_missing', { name: 'x' })).toBeNull();

    const page = await s.applications.list({ limit: 1, offset: 1 });
    expect([page.applications.map((a) => a.id), page.total]).toEqual([[second.id], 2]);

    const link = {
      application_id: second.id,
      workspace_id: 'ws_a',
      enabled: true,
      config_overrides: { model: 'y' },
      created_at: at(3),
      updated_at: at(3),
    };
    expect(await s.applications.createLink(link)).toBe(true);
    expect(await s.applications.createLink({ ...link, enabled: false, created_at: at(9) })).toBe(false);
    expect(await s.applications.getLink(second.id, 'ws_a')).toEqual(link);
    const disabled = await s.applications.updateLink(second.id, 'ws_a', { enabled: false, updated_at: at(4) });
    expect(disabled).toEqual({ ...link, enabled: false, updated_at: at(4) });
    const replaced = await s.applications.updateLink(second.id, 'ws_a', { config_overrides: {}, updated_at: at(5) });
    expect(replaced).toEqual({ ...link, enabled: false, config_overrides: {}, updated_at: at(5) });
    expect(await s.applications.updateLink(second.id, 'ws_b', { enabled: true, updated_at: at(6) })).toBeNull();
    expect(await s.applications.getLink(second.id, 'ws_a')).toEqual(replaced);
    expect(await s.applications.getLink(second.id, 'ws_b')).toBeNull();

    const linked = await s.applications.list({ limit: 10, offset: 0, linkedTo: ['ws_a', 'ws_b'] });
    expect([linked.applications.map((a) => a.id), linked.total]).toEqual([[second.id], 1]);
    expect((await s.applications.list({ limit: 10, offset: 0, linkedTo: [] })).total).toBe(0);
    expect(await s.applications.listLinked('ws_a')).toEqual([{ application: second, link: replaced }]);
    expect(await s.applications.listLinked('ws_b')).toEqual([]);

    expect(await s.applications.deleteLink(second.id, 'ws_a')).toBe(true);
    expect(await s.applications.deleteLink(second.id, 'ws_a')).toBe(false);
    await s.applications.createLink(link);
    expect(await s.applications.delete(second.id)).toBe(true);
    expect(await s.applications.listLinked('ws_a')).toEqual([]);
    expect(await s.applications.delete(second.id)).toBe(false);
    await s.close();
  });

  it('skills: a name once per scope and owner, the manifest from SKILL.md, visibility by workspace and user', async () => {
    const s = await fresh();
    const inA = skill(
      'review',
      { scope: 'workspace', workspace_id: 'ws_a', user_id: null },
      { version: '1.0', description: 'Reviews', metadata: { tags: ['x'] } },
    );
    expect(
      await s.skills.create(inA, [
        file('SKILL.md', '---\nname: review\n---\nBody'),
        file('scripts/run.py', 'print(1)'),
      ]),
    ).toBe(true);
    expect(
      await s.skills.create(skill('review', { scope: 'workspace', workspace_id: 'ws_a', user_id: null }), [
        file('SKILL.md', 'x'),
      ]),
    ).toBe(false);
    const tenant = skill('review', { scope: 'tenant', workspace_id: null, user_id: null });
    const global = skill('review', { scope: 'global', workspace_id: null, user_id: null });
    const ana = skill('review', { scope: 'user', workspace_id: null, user_id: 'ana' });
    const inB = skill('other', { scope: 'workspace', workspace_id: 'ws_b', user_id: null });
    for (const entry of [tenant, global, ana, inB])
      expect(await s.skills.create(entry, [file('SKILL.md', entry.scope)])).toBe(true);
    expect(
      await s.skills.create(skill('review', { scope: 'global', workspace_id: null, user_id: null }), [
        file('SKILL.md', 'x'),
      ]),
    ).toBe(false);

    expect(await s.skills.get(inA.id)).toEqual({ ...inA, manifest: '---\nname: review\n---\nBody' });
    expect(await s.skills.get('skill_missing')).toBeNull();

    const ids = (skills: Skill[]) => skills.map((k) => k.id).sort();
    expect(ids(await s.skills.listVisible({ workspaceId: 'ws_a', userId: null }))).toEqual(
      [inA.id, tenant.id, global.id].sort(),
    );
    expect(ids(await s.skills.listVisible({ workspaceId: 'ws_a', userId: 'ana' }))).toEqual(
      [inA.id, tenant.id, global.id, ana.id].sort(),
    );
    expect(ids(await s.skills.listVisible({ workspaceId: 'ws_b', userId: 'bob' }))).toEqual(
      [inB.id, tenant.id, global.id].sort(),
    );
    expect(ids(await s.skills.listVisible({ workspaceId: 'ws_b', userId: null }, { names: ['other'] }))).toEqual([
      inB.id,
    ]);
    expect(await s.skills.listVisible({ workspaceId: 'ws_b', userId: null }, { names: [] })).toEqual([]);
    expect(ids(await s.skills.listVisible({ workspaceId: 'ws_a', userId: 'ana' }, { scope: 'user' }))).toEqual([
      ana.id,
    ]);

    expect(await s.skills.update(inA.id, { description: 'New', metadata: {}, updated_at: at(5) })).toMatchObject({
      description: 'New',
      version: '1.0',
      metadata: {},
      updated_at: at(5),
    });
    expect(await s.skills.update('skill_missing', { description: 'x' })).toBeNull();
    await s.close();
  });

  it('skill files: binary content round-trips, upserts keep created_at, deletes go with the skill', async () => {
    const s = await fresh();
    const entry = skill('bin', { scope: 'workspace', workspace_id: 'ws_a', user_id: null });
    await s.skills.create(entry, [file('SKILL.md', 'm')]);
    const bytes = Buffer.from([0, 255, 1, 254, 10]);
    const binary: SkillFile = {
      path: 'assets/blob.bin',
      content: bytes,
      size: 5,
      sha256: 'h1',
      created_at: at(1),
      updated_at: at(1),
    };
    await s.skills.putFiles(entry.id, [binary, file('a.txt', 'a')]);
    expect(await s.skills.getFile(entry.id, 'assets/blob.bin')).toEqual(binary);
    await s.skills.putFiles(entry.id, [
      { ...binary, content: Buffer.from('new'), size: 3, sha256: 'h2', created_at: at(7), updated_at: at(7) },
    ]);
    expect(await s.skills.getFile(entry.id, 'assets/blob.bin')).toMatchObject({
      size: 3,
      sha256: 'h2',
      created_at: at(1),
      updated_at: at(7),
    });
    expect((await s.skills.listFiles(entry.id)).map((f) => [f.path, f.size])).toEqual([
      ['SKILL.md', 1],
      ['a.txt', 1],
      ['assets/blob.bin', 3],
    ]);
    expect(await s.skills.deleteFiles(entry.id, ['a.txt', 'nope'])).toBe(1);
    expect(await s.skills.getFile(entry.id, 'a.txt')).toBeNull();
    expect(await s.skills.delete(entry.id)).toBe(true);
    expect(await s.skills.listFiles(entry.id)).toEqual([]);
    expect(await s.skills.delete(entry.id)).toBe(false);
    await s.close();
  });

  it('MCP servers: round-trip, scoped uniqueness, visibility, update', async () => {
    const s = await fresh();
    const local = mcp(
      'github',
      { scope: 'local', workspace_id: 'ws_a', user_id: 'ana' },
      { env_keys: ['TOKEN'], sealed_secrets: 'v1.sealed', metadata: { a: 1 } },
    );
    const project = mcp(
      'github',
      { scope: 'project', workspace_id: 'ws_a', user_id: null },
      { transport: 'http', command: null, args: [], url: 'https://x', header_keys: ['Authorization'] },
    );
    const user = mcp('github', { scope: 'user', workspace_id: null, user_id: 'ana' });
    const global = mcp('github', { scope: 'global', workspace_id: null, user_id: null }, { enabled: false });
    for (const entry of [local, project, user, global]) expect(await s.mcpServers.create(entry)).toBe(true);
    expect(await s.mcpServers.create(mcp('github', { scope: 'local', workspace_id: 'ws_a', user_id: 'ana' }))).toBe(
      false,
    );
    expect(await s.mcpServers.create(mcp('github', { scope: 'local', workspace_id: 'ws_a', user_id: 'bob' }))).toBe(
      true,
    );

    expect(await s.mcpServers.get(local.id)).toEqual(local);
    expect(await s.mcpServers.get(global.id)).toEqual(global);
    const visible = await s.mcpServers.listVisible({ workspaceId: 'ws_a', userId: 'ana' });
    expect(visible.map((e) => e.id).sort()).toEqual([local.id, project.id, user.id, global.id].sort());
    expect((await s.mcpServers.listVisible({ workspaceId: 'ws_b', userId: null })).map((e) => e.id)).toEqual([
      global.id,
    ]);
    expect(
      (
        await s.mcpServers.listVisible({ workspaceId: 'ws_a', userId: null }, { scope: 'project', names: ['github'] })
      ).map((e) => e.id),
    ).toEqual([project.id]);

    const updated = await s.mcpServers.update(project.id, {
      enabled: false,
      args: ['--x'],
      env_keys: ['A'],
      sealed_secrets: null,
      metadata: { m: true },
      last_synced_at: at(3),
      updated_at: at(3),
    });
    expect(updated).toEqual({
      ...project,
      enabled: false,
      args: ['--x'],
      env_keys: ['A'],
      sealed_secrets: null,
      metadata: { m: true },
      last_synced_at: at(3),
      updated_at: at(3),
    });
    expect(await s.mcpServers.update('mcp_missing', { enabled: true })).toBeNull();
    expect(await s.mcpServers.delete(project.id)).toBe(true);
    expect(await s.mcpServers.delete(project.id)).toBe(false);
    await s.close();
  });

  it('data providers: per workspace, paged, patched, deleted', async () => {
    const s = await fresh();
    const first = provider('ws_a', { sealed_args: 'v1.x', schedule: '0 * * * *', metadata: { a: 1 } });
    const second = provider('ws_a', { name: 'second', created_at: at(1), updated_at: at(1) });
    await s.dataProviders.create(first);
    await s.dataProviders.create(second);
    await s.dataProviders.create(provider('ws_b'));
    expect(await s.dataProviders.get('ws_a', first.id)).toEqual(first);
    expect(await s.dataProviders.get('ws_b', first.id)).toBeNull();
    const page = await s.dataProviders.list('ws_a', { limit: 1, offset: 0 });
    expect([page.providers.map((p) => p.id), page.total]).toEqual([[first.id], 2]);
    expect(
      await s.dataProviders.update('ws_a', first.id, {
        sealed_args: null,
        schedule: null,
        connection_args: {},
        updated_at: at(2),
      }),
    ).toEqual({
      ...first,
      sealed_args: null,
      schedule: null,
      connection_args: {},
      updated_at: at(2),
    });
    expect(await s.dataProviders.update('ws_b', first.id, { name: 'x' })).toBeNull();
    expect(await s.dataProviders.delete('ws_b', first.id)).toBe(false);
    expect(await s.dataProviders.delete('ws_a', first.id)).toBe(true);
    await s.close();
  });

  it('deleting a workspace takes its registry entries and links, not the tenant-level ones', async () => {
    const s = await fresh();
    const app = application();
    await s.applications.create(app);
    await s.applications.createLink({
      application_id: app.id,
      workspace_id: 'ws_b',
      enabled: true,
      config_overrides: {},
      created_at: T0,
      updated_at: T0,
    });
    const inB = skill('s', { scope: 'workspace', workspace_id: 'ws_b', user_id: null });
    const tenant = skill('s', { scope: 'tenant', workspace_id: null, user_id: null });
    await s.skills.create(inB, [file('SKILL.md', 'x')]);
    await s.skills.create(tenant, [file('SKILL.md', 'x')]);
    const local = mcp('m', { scope: 'local', workspace_id: 'ws_b', user_id: 'u' });
    const global = mcp('m', { scope: 'global', workspace_id: null, user_id: null });
    await s.mcpServers.create(local);
    await s.mcpServers.create(global);
    const dp = provider('ws_b');
    await s.dataProviders.create(dp);

    expect(await s.transaction((tx) => tx.workspaces.delete('ws_b'))).toBe(true);
    expect(await s.applications.get(app.id)).not.toBeNull();
    expect(await s.applications.getLink(app.id, 'ws_b')).toBeNull();
    expect(await s.skills.get(inB.id)).toBeNull();
    expect(await s.skills.listFiles(inB.id)).toEqual([]);
    expect(await s.skills.get(tenant.id)).not.toBeNull();
    expect(await s.mcpServers.get(local.id)).toBeNull();
    expect(await s.mcpServers.get(global.id)).not.toBeNull();
    expect(await s.dataProviders.get('ws_b', dp.id)).toBeNull();
    await s.close();
  });
});
