import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/documents.js';
import { client, startServer, startTwoTeams, type Client, type TestServer, type TwoTeams } from '../support/server.js';

type Json = Record<string, any>;

const remember = async (
  api: Client,
  workspace: string,
  content: string,
  headers: Record<string, string> = {},
): Promise<Json> => {
  const res = await api.post('/v1/memories', { workspace_id: workspace, content }, headers);
  expect(res.status).toBe(201);
  return res.body.memory;
};

describe('one workspace resolution for every route and method', () => {
  let server: TestServer;
  let api: Client;

  beforeAll(async () => {
    server = await startServer();
    api = client(server.url);
  });
  afterAll(() => server.stop());

  it('reaches a memory by ?workspace_id= with every method, and by its id alone', async () => {
    const memory = await remember(api, 'res-w', 'Deploys go out on Tuesdays.');
    const q = '?workspace_id=res-w';
    expect((await api.get(`/v1/memories/${memory.id}${q}`)).body.memory.id).toBe(memory.id);
    expect((await api.put(`/v1/memories/${memory.id}${q}`, { importance: 0.9 })).body.memory.importance).toBe(0.9);
    expect(
      (await api.post(`/v1/memories/${memory.id}/decay${q}`, { decay_rate: 0.2 })).body.memory.importance,
    ).toBeCloseTo(0.7);
    expect((await api.post(`/v1/memories/${memory.id}/traverse${q}`, { max_depth: 1 })).status).toBe(200);
    expect((await api.get(`/v1/memories/${memory.id}/trace${q}`)).body.memory.id).toBe(memory.id);

    // No workspace named: the memory is found by its id.
    expect((await api.get(`/v1/memories/${memory.id}`)).body.memory.workspace_id).toBe('res-w');
    expect((await api.put(`/v1/memories/${memory.id}`, { tags: ['ops'] })).body.memory.tags).toEqual(['ops']);
    expect((await api.post(`/v1/memories/${memory.id}/decay`, {})).body.memory.importance).toBeCloseTo(0.6);
    const other = await remember(api, 'res-w', 'Releases are tagged on Wednesdays.');
    expect(
      (await api.post(`/v1/memories/${memory.id}/associate`, { target_id: other.id, relationship: 'precedes' })).status,
    ).toBe(201);
    expect((await api.get(`/v1/memories/${memory.id}/associations`)).body.associations).toHaveLength(1);
    expect((await api.delete(`/v1/memories/${other.id}`)).status).toBe(204);
    expect((await api.get(`/v1/memories/${other.id}?workspace_id=res-w`)).body.memory.status).toBe('deleted');
  });

  it('answers 404 when the named workspace (body, query, header or session) is not the record’s', async () => {
    const memory = await remember(api, 'res-a', 'The VPN gateway is in Frankfurt.');
    await api.post('/v1/workspaces', { id: 'res-b', name: 'B' });
    const sessionInB = (await api.post('/v1/sessions', { workspace_id: 'res-b' })).body.session;
    expect((await api.get(`/v1/memories/${memory.id}`, { 'x-session-id': sessionInB.id })).status).toBe(404);
    expect((await api.post(`/v1/memories/${memory.id}/decay`, {}, { 'x-session-id': sessionInB.id })).status).toBe(404);
    const missing = await api.get(`/v1/memories/${memory.id}?workspace_id=res-b`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toContain(memory.id);
    expect((await api.get(`/v1/memories/${memory.id}`, { 'x-workspace-id': 'res-b' })).status).toBe(404);
    expect((await api.put(`/v1/memories/${memory.id}`, { importance: 0.1, workspace_id: 'res-b' })).status).toBe(404);
    expect((await api.post(`/v1/memories/${memory.id}/decay?workspace_id=res-b`, {})).status).toBe(404);
    expect((await api.delete(`/v1/memories/${memory.id}?workspace_id=res-b`)).status).toBe(404);
    // Nothing changed.
    expect((await api.get(`/v1/memories/${memory.id}`)).body.memory).toMatchObject({
      importance: 0.5,
      status: 'active',
    });
  });

  it('finds sessions, threads, skills, MCP servers, data providers, documents and jobs by id', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'res-reg' })).body.session;
    expect((await api.get(`/v1/sessions/${session.id}`)).body.session.workspace_id).toBe('res-reg');
    expect((await api.post(`/v1/sessions/${session.id}/memory`, { key: 'k', value: 1 })).status).toBe(201);

    const thread = (await api.post('/v1/threads', { workspace_id: 'res-reg', title: 'T' })).body.thread;
    expect((await api.get(`/v1/threads/${thread.thread_id}`)).body.thread.title).toBe('T');
    expect(
      (await api.post(`/v1/threads/${thread.thread_id}/messages`, { messages: [{ role: 'user', content: 'hi' }] }))
        .status,
    ).toBe(201);

    const skill = (
      await api.post('/v1/skills', {
        workspace_id: 'res-reg',
        manifest: '---\nname: deploy\ndescription: Deploys\n---\nSteps\n',
      })
    ).body.skill;
    expect((await api.get(`/v1/skills/${skill.id}`)).body.skill.name).toBe('deploy');
    expect((await api.get(`/v1/skills/${skill.id}/files`)).status).toBe(200);

    const server_ = (await api.post('/v1/mcp-servers', { workspace_id: 'res-reg', name: 'files', command: 'npx' })).body
      .mcp_server;
    expect((await api.get(`/v1/mcp-servers/${server_.id}`)).body.mcp_server.name).toBe('files');
    expect(
      (await api.raw('PATCH', `/v1/mcp-servers/${server_.id}`, { description: 'local files' })).body.mcp_server
        .description,
    ).toBe('local files');

    const provider = (
      await api.post('/v1/data-providers', { workspace_id: 'res-reg', name: 'drive', provider_type: 'local' })
    ).body.data_provider;
    expect((await api.get(`/v1/data-providers/${provider.id}`)).body.data_provider.name).toBe('drive');

    const upload = await uploadDocument(
      server.url,
      { name: 'notes.txt', bytes: Buffer.from('Backups run nightly at two.'), type: 'text/plain' },
      { workspace_id: 'res-reg' },
    );
    expect(upload.status).toBe(202);
    expect((await api.get(`/v1/documents/${upload.body.document.id}`)).body.document.workspace_id).toBe('res-reg');
    expect((await api.get(`/v1/documents/jobs/${upload.body.job.id}`)).body.job.id).toBe(upload.body.job.id);

    // Each of them is a 404 from another named workspace.
    const elsewhere = '?workspace_id=res-elsewhere';
    for (const path of [
      `/v1/sessions/${session.id}`,
      `/v1/threads/${thread.thread_id}`,
      `/v1/skills/${skill.id}`,
      `/v1/mcp-servers/${server_.id}`,
      `/v1/data-providers/${provider.id}`,
      `/v1/documents/${upload.body.document.id}`,
      `/v1/documents/jobs/${upload.body.job.id}`,
    ]) {
      expect((await api.get(`${path}${elsewhere}`)).status, path).toBe(404);
    }
  });

  it('finds an association and a contradiction by id, and answers 404 from another named workspace, changing nothing', async () => {
    const [a, b] = [
      await remember(api, 'res-edges', 'Ana works at Google'),
      await remember(api, 'res-edges', 'Ana joined Microsoft last spring'),
    ];
    const link = (await api.post(`/v1/memories/${a.id}/associate`, { target_id: b.id, relationship: 'related_to' }))
      .body.association;
    expect((await api.delete(`/v1/memories/${a.id}/associations/${link.id}?workspace_id=res-elsewhere`)).status).toBe(
      404,
    );
    expect((await api.get(`/v1/memories/${a.id}/associations`)).body.associations.map((x: Json) => x.id)).toContain(
      link.id,
    );
    expect((await api.delete(`/v1/memories/${a.id}/associations/${link.id}`)).status).toBe(204);
    expect((await api.get(`/v1/memories/${a.id}/associations`)).body.associations.map((x: Json) => x.id)).not.toContain(
      link.id,
    );

    await server.drainTasks();
    expect(
      (await api.post('/v1/workspaces/res-edges/contradictions/scan', { batch_size: 10 })).body.contradictions_found,
    ).toBe(1);
    const [contradiction] = (await api.get('/v1/workspaces/res-edges/contradictions')).body.contradictions;
    const elsewhere = await api.post(`/v1/contradictions/${contradiction.id}/resolve?workspace_id=res-elsewhere`, {
      resolution: 'keep_both',
    });
    expect(elsewhere.status).toBe(404);
    expect((await api.get('/v1/workspaces/res-edges/contradictions')).body.contradictions).toHaveLength(1);
    const resolved = await api.post(`/v1/contradictions/${contradiction.id}/resolve`, { resolution: 'keep_both' });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ id: contradiction.id, workspace_id: 'res-edges', resolution: 'keep_both' });
  });

  it('asks for a workspace when a thread id is used in two of them', async () => {
    await api.post('/v1/threads', { workspace_id: 'res-t1', thread_id: 'conv-shared' });
    await api.post('/v1/threads', { workspace_id: 'res-t2', thread_id: 'conv-shared', title: 'second' });
    const ambiguous = await api.get('/v1/threads/conv-shared');
    expect(ambiguous.status).toBe(404);
    expect(ambiguous.body.message).toContain('workspace_id');
    expect((await api.get('/v1/threads/conv-shared?workspace_id=res-t2')).body.thread.title).toBe('second');
  });

  it('takes the workspace from the body, then the query, the header, the session, then _default', async () => {
    const session = (await api.post('/v1/sessions', { workspace_id: 'res-order-session' })).body.session;
    const all = { 'x-workspace-id': 'res-order-header', 'x-session-id': session.id };
    const write = async (path: string, body: Json, headers: Record<string, string>) =>
      (await api.post(path, { content: `note ${Math.random()}`, ...body }, headers)).body.memory.workspace_id;
    expect(await write('/v1/memories?workspace_id=res-order-query', { workspace_id: 'res-order-body' }, all)).toBe(
      'res-order-body',
    );
    expect(await write('/v1/memories?workspace_id=res-order-query', {}, all)).toBe('res-order-query');
    expect(await write('/v1/memories', {}, all)).toBe('res-order-header');
    expect(await write('/v1/memories', {}, { 'x-session-id': session.id })).toBe('res-order-session');
    expect(await write('/v1/memories', {}, {})).toBe('_default');
  });

  it('refuses an X-Workspace-ID that is not a workspace id (422), creating nothing; a body that names one still wins', async () => {
    const refused = await api.post(
      '/v1/memories',
      { content: 'Filed under a bad name.' },
      { 'x-workspace-id': 'hdr bad' },
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'validation_error',
      details: [{ path: 'X-Workspace-ID', message: expect.stringContaining('not a workspace id') }],
    });
    expect((await api.get('/v1/memories', { 'x-workspace-id': 'a/b' })).status).toBe(422);
    expect((await api.get(`/v1/workspaces/${encodeURIComponent('hdr bad')}`)).status).toBe(404);
    const named = await api.post(
      '/v1/memories',
      { workspace_id: 'res-good-body', content: 'Filed under a good name.' },
      { 'x-workspace-id': 'hdr bad' },
    );
    expect(named.body.memory.workspace_id).toBe('res-good-body');
  });
});

describe('workspace resolution with API keys', () => {
  let teams: TwoTeams;

  beforeAll(async () => {
    teams = await startTwoTeams();
  });
  afterAll(() => teams.server.stop());

  it("finds a record of the key's workspaces by id, and reports one elsewhere as missing (404, revealing nothing)", async () => {
    const { admin, keyA } = teams;
    const mine = await remember(admin, 'team-a', 'Team A ships on Mondays.');
    const theirs = await remember(admin, 'team-b', 'Team B ships on Fridays.');
    expect((await keyA.get(`/v1/memories/${mine.id}`)).body.memory.id).toBe(mine.id);

    const hidden = await keyA.get(`/v1/memories/${theirs.id}`);
    const absent = await keyA.get('/v1/memories/mem_0000000000000000');
    expect([hidden.status, absent.status]).toEqual([404, 404]);
    expect(hidden.body.message).toBe(absent.body.message.replace('mem_0000000000000000', theirs.id));
    expect((await keyA.put(`/v1/memories/${theirs.id}`, { importance: 0 })).status).toBe(404);
    expect((await keyA.delete(`/v1/memories/${theirs.id}`)).status).toBe(404);
    expect((await admin.get(`/v1/memories/${theirs.id}`)).body.memory.importance).toBe(0.5);

    const skill = (await admin.post('/v1/skills', { workspace_id: 'team-b', manifest: '---\nname: secret\n---\nx\n' }))
      .body.skill;
    expect((await keyA.get(`/v1/skills/${skill.id}`)).status).toBe(404);
    const session = (await admin.post('/v1/sessions', { workspace_id: 'team-b' })).body.session;
    expect((await keyA.get(`/v1/sessions/${session.id}`)).status).toBe(404);
    const sibling = await remember(admin, 'team-b', 'Team B joined Microsoft last spring.');
    const link = (
      await admin.post(`/v1/memories/${theirs.id}/associate`, { target_id: sibling.id, relationship: 'related_to' })
    ).body.association;
    expect((await keyA.delete(`/v1/memories/${theirs.id}/associations/${link.id}`)).status).toBe(404);
    expect(
      (await admin.get(`/v1/memories/${theirs.id}/associations`)).body.associations.map((x: Json) => x.id),
    ).toContain(link.id);

    await remember(admin, 'team-b', 'Bea works at Google');
    await remember(admin, 'team-b', 'Bea joined Microsoft last spring');
    await teams.server.drainTasks();
    await admin.post('/v1/workspaces/team-b/contradictions/scan', { batch_size: 10 });
    const [contradiction] = (await admin.get('/v1/workspaces/team-b/contradictions')).body.contradictions;
    expect(contradiction).toBeDefined();
    const hiddenContradiction = await keyA.post(`/v1/contradictions/${contradiction.id}/resolve`, {
      resolution: 'keep_a',
    });
    const absentContradiction = await keyA.post('/v1/contradictions/ctr_0000000000000000/resolve', {
      resolution: 'keep_a',
    });
    expect([hiddenContradiction.status, absentContradiction.status]).toEqual([404, 404]);
    expect(
      (await admin.get('/v1/workspaces/team-b/contradictions')).body.contradictions.map((c: Json) => c.id),
    ).toContain(contradiction.id);
    expect((await keyA.delete(`/v1/sessions/${session.id}`)).status).toBe(404);
    expect((await admin.get(`/v1/sessions/${session.id}`)).status).toBe(200);
  });

  it('lets a key with several workspaces reach a record in any of them without naming it', async () => {
    const { admin, server } = teams;
    const issued = await admin.post('/v1/api-keys', { name: 'both', workspaces: ['team-a', 'team-b'] });
    const both = client(server.url, { authorization: `Bearer ${issued.body.api_key.key}` });
    const inB = await remember(admin, 'team-b', 'Team B on-call rotates weekly.');
    expect((await both.get(`/v1/memories/${inB.id}`)).body.memory.workspace_id).toBe('team-b');
    expect((await both.post(`/v1/memories/${inB.id}/decay`, {})).status).toBe(200);
  });
});
