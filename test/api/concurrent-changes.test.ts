import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

type Json = Record<string, any>;

/**
 * Two partial changes of one record sent at once, each naming a different field: both land, as if one had come
 * after the other. A skill's SKILL.md, an MCP server's connection and an application's link were rebuilt from what
 * each change had read before the other committed, so on PostgreSQL the later write undid the earlier one's field
 * (skills in 8 rounds of 8, links in 6); and two links of one application at once both answered 201. Several
 * rounds, since a race shows in some rounds only.
 */
describe('two changes of one record at once', () => {
  const ROUNDS = 6;
  const workspace = 'changes';
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
    await api.post('/v1/workspaces', { id: workspace, name: workspace });
  });
  afterAll(() => server.stop());

  const statuses = (answers: Array<{ status: number }>) => answers.map((a) => a.status);

  it('a skill: a new description and a new version both stay', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await api.post('/v1/skills', {
        workspace_id: workspace,
        manifest: `---\nname: skill-${round}\ndescription: Old\nversion: 1.0.0\n---\nBody ${round}\n`,
      });
      const path = `/v1/skills/${created.body.skill.id}?workspace_id=${workspace}`;
      const answers = await Promise.all([
        api.put(path, { description: 'Drafts release notes' }),
        api.put(path, { version: '2.0.0' }),
      ]);
      expect(statuses(answers)).toEqual([200, 200]);
      const { skill } = (await api.get(path)).body;
      expect(skill).toMatchObject({ description: 'Drafts release notes', version: '2.0.0' });
      // The front matter states both, so each change rewrote SKILL.md.
      expect(skill.manifest).toContain('description: Drafts release notes');
      expect(skill.manifest).toContain('version: 2.0.0');
    }
  });

  it('an MCP server: new env and new args both stay', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await api.post('/v1/mcp-servers', {
        workspace_id: workspace,
        name: `mcp-${round}`,
        command: 'npx',
      });
      const path = `/v1/mcp-servers/${created.body.mcp_server.id}?workspace_id=${workspace}`;
      const answers = await Promise.all([api.put(path, { env: { REGION: 'eu' } }), api.put(path, { args: ['-y'] })]);
      expect(statuses(answers)).toEqual([200, 200]);
      const entry: Json = (await api.get(path)).body.mcp_server;
      // env is masked when read.
      expect(entry).toMatchObject({ env: { REGION: expect.any(String) }, args: ['-y'] });
    }
  });

  it("an application's link: made twice at once, one 201 and one 200; disabled and given overrides at once, both stay", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const application = (await api.post('/v1/applications', { name: `app-${round}` })).body;
      const path = `/v1/applications/${application.id}/workspaces/${workspace}`;
      expect(statuses(await Promise.all([api.post(path, {}), api.post(path, {})])).sort()).toEqual([200, 201]);
      const answers = await Promise.all([
        api.post(path, { enabled: false }),
        api.post(path, { config_overrides: { model: `m-${round}` } }),
      ]);
      expect(statuses(answers)).toEqual([200, 200]);
      const linked: Json[] = (await api.get(`/v1/workspaces/${workspace}/applications`)).body.applications;
      const link = linked.find((a) => a.id === application.id)?.association;
      expect(link).toMatchObject({ enabled: false, config_overrides: { model: `m-${round}` } });
    }
  });
});
