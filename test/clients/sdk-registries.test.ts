import { describe, expect, it } from 'vitest';
import { expectFields } from './fields.js';
import { useClientServer } from './server.js';

const SKILL_FIELDS = [
  'id',
  'tenant_id',
  'workspace_id',
  'name',
  'description',
  'version',
  'metadata',
  'source_mode',
  'created_at',
  'updated_at',
];
const MCP_SERVER_FIELDS = [
  'id',
  'tenant_id',
  'workspace_id',
  'name',
  'transport',
  'args',
  'env',
  'headers',
  'metadata',
  'source_mode',
  'enabled',
  'created_at',
  'updated_at',
];

/** The skills, MCP-server and knowledgebase namespaces of the SDK, as they send their calls. */
describe('SDK: skills', () => {
  const t = useClientServer({ workspaceId: 'sdk-skills' });

  it('save (push), list, get, getManifest, listFiles, getFile (encoded path), resolve', async () => {
    // save({ name, description, body, files }) from a namespace with a workspace
    const saved = await t.sdk.call({
      method: 'POST',
      path: '/v1/skills',
      body: {
        name: 'deploy',
        description: 'How we deploy',
        version: '0.1.0',
        body: '# Deploy\nRun the script.\n',
        metadata: {},
        source_mode: 'server',
        files: [{ path: 'scripts/run.sh', content: 'echo deploy\n' }],
        workspace_id: 'sdk-skills',
      },
    });
    expect(saved.status, saved.errorMessage).toBe(201);
    expectFields(saved.body.skill, SKILL_FIELDS, 'skill');
    const id = saved.body.skill.id as string;

    // list({ workspaceId, scope, name, enabled, includeShadowed, tags }): filters memd does not have are ignored
    const listed = await t.sdk.call({
      method: 'GET',
      path: '/v1/skills?workspace_id=sdk-skills&scope=workspace&name=deploy&enabled=true&include_shadowed=true&tags=ops%2Cci',
    });
    expect(listed.status, listed.errorMessage).toBe(200);
    expect(listed.body.skills.map((s: { id: string }) => s.id)).toEqual([id]);

    expectFields((await t.sdk.call({ method: 'GET', path: `/v1/skills/${id}` })).body.skill, SKILL_FIELDS, 'skill');
    const manifest = await t.sdk.call({ method: 'GET', path: `/v1/skills/${id}/manifest` });
    expect(manifest.status).toBe(200);
    expect(manifest.body).toContain('Run the script.');
    const files = await t.sdk.call({ method: 'GET', path: `/v1/skills/${id}/files` });
    expect(files.body.files.map((f: { path: string }) => f.path).sort()).toEqual(['SKILL.md', 'scripts/run.sh']);
    const file = await t.sdk.call({
      method: 'GET',
      path: `/v1/skills/${id}/files/${encodeURIComponent('scripts/run.sh')}`,
    });
    expect(file.status, file.errorMessage).toBe(200);
    expect(file.body.file).toMatchObject({ path: 'scripts/run.sh', content: 'echo deploy\n' });

    // resolve({ name }): the body names no workspace; X-Workspace-ID does
    const resolved = await t.sdk.call({ method: 'POST', path: '/v1/skills/resolve', body: { name: 'deploy' } });
    expect(resolved.body.skill.id).toBe(id);
  });

  it('save with a manifest-style description that differs from the front matter stores it', async () => {
    const saved = await t.sdk.call({
      method: 'POST',
      path: '/v1/skills',
      body: {
        manifest: '---\nname: lint\ndescription: Old words\n---\nRun the linter.\n',
        description: 'New words',
        workspace_id: 'sdk-skills',
      },
    });
    expect(saved.status, saved.errorMessage).toBe(201);
    expect(saved.body.skill.description).toBe('New words');
  });
});

describe('SDK: MCP servers', () => {
  const t = useClientServer({ workspaceId: 'sdk-mcp' });

  it('create, list, get, update (PATCH), resolve', async () => {
    const created = await t.sdk.call({
      method: 'POST',
      path: '/v1/mcp-servers',
      body: {
        name: 'files',
        transport: 'stdio',
        args: ['--root', '/srv'],
        env: { TOKEN: 'secret' },
        headers: {},
        metadata: {},
        source_mode: 'server',
        enabled: true,
        command: 'npx',
        workspace_id: 'sdk-mcp',
      },
    });
    expect(created.status, created.errorMessage).toBe(201);
    expectFields(created.body.mcp_server, MCP_SERVER_FIELDS, 'mcp_server');
    const id = created.body.mcp_server.id as string;

    const listed = await t.sdk.call({
      method: 'GET',
      path: '/v1/mcp-servers?workspace_id=sdk-mcp&name=files&transport=stdio&enabled=true&limit=10&offset=0',
    });
    expect(listed.status, listed.errorMessage).toBe(200);
    expect(listed.body.mcp_servers.map((s: { id: string }) => s.id)).toEqual([id]);
    expectFields(
      (await t.sdk.call({ method: 'GET', path: `/v1/mcp-servers/${id}` })).body.mcp_server,
      MCP_SERVER_FIELDS,
      'mcp_server',
    );

    const updated = await t.sdk.call({
      method: 'PATCH',
      path: `/v1/mcp-servers/${id}`,
      body: { description: 'Local files', enabled: false },
    });
    expect(updated.status, updated.errorMessage).toBe(200);
    expect(updated.body.mcp_server).toMatchObject({ description: 'Local files', enabled: false });

    const resolved = await t.sdk.call({
      method: 'POST',
      path: '/v1/mcp-servers/resolve',
      body: { name: 'files', workspace_id: 'sdk-mcp' },
    });
    expect(resolved.status, resolved.errorMessage).toBe(200);
    expect(resolved.body.mcp_server).toMatchObject({ id, env: { TOKEN: 'secret' } });
  });
});

describe('SDK: knowledgebase', () => {
  const t = useClientServer({ workspaceId: 'sdk-kb' });

  // Communities themselves are tested in test/api/knowledgebase.test.ts; here, the calls as the SDK sends them.
  it('get (404 before the first generation), generate with the SDK’s options, listArticles, getArticle, getCommunity', async () => {
    for (const content of [
      'PostgreSQL stores the orders.',
      'PostgreSQL replicas serve reports.',
      'Redis caches sessions.',
      'Redis evicts with LRU.',
    ]) {
      await t.sdk.call({
        method: 'POST',
        path: '/v1/memories',
        body: { content, workspace_id: 'sdk-kb', importance: 0.5, tags: [], metadata: {}, associations: [] },
      });
    }
    await t.server.drainTasks();
    const before = await t.sdk.call({ method: 'GET', path: '/v1/knowledgebase' });
    expect(before.status).toBe(404);
    expect(before.errorMessage).toEqual(expect.any(String));

    // generate() with its defaults
    const generated = await t.sdk.call({
      method: 'POST',
      path: '/v1/knowledgebase/generate',
      body: { include_rpg: false, max_communities: 50, max_god_nodes: 20, regenerate: false },
    });
    expect(generated.status, generated.errorMessage).toBe(200);
    expect((await t.sdk.call({ method: 'GET', path: '/v1/knowledgebase' })).status).toBe(200);

    const articles = await t.sdk.call({ method: 'GET', path: '/v1/knowledgebase/articles?limit=20&offset=0' });
    expect(articles.status, articles.errorMessage).toBe(200);
    expect(articles.body.articles.length).toBeGreaterThan(0);
    const article = await t.sdk.call({
      method: 'GET',
      path: `/v1/knowledgebase/articles/${articles.body.articles[0].id}`,
    });
    expect(article.status, article.errorMessage).toBe(200);

    for (const unknown of ['999', 'not-a-number']) {
      const community = await t.sdk.call({ method: 'GET', path: `/v1/knowledgebase/graph/communities/${unknown}` });
      expect([community.status, community.body.code], unknown).toEqual([404, 'not_found']);
    }
    expect((await t.sdk.call({ method: 'GET', path: '/v1/knowledgebase/graph' })).status).toBe(200);
  });
});
