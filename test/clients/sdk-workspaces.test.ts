import { describe, expect, it } from 'vitest';
import { expectFields, MEMORY_FIELDS } from './fields.js';
import { useClientServer } from './server.js';
import { wireClient } from './wire.js';

const WORKSPACE_FIELDS = ['id', 'tenant_id', 'name', 'settings', 'created_at', 'updated_at'];

/** The workspace, context, schema, export and import calls of the SDK (v0.0.6), as it sends them. */
describe('SDK: workspaces, contexts, schema, export and import', () => {
  const t = useClientServer({ workspaceId: 'sdk-ws' });

  it('createWorkspace, getWorkspace, listWorkspaces, updateWorkspace', async () => {
    const created = await t.sdk.call({
      method: 'POST',
      path: '/v1/workspaces',
      body: { name: 'Team space', settings: {} },
    });
    expect(created.status, created.errorMessage).toBe(201);
    expectFields(created.body.workspace, WORKSPACE_FIELDS, 'workspace');
    const id = created.body.workspace.id as string;
    expectFields(
      (await t.sdk.call({ method: 'GET', path: `/v1/workspaces/${id}` })).body.workspace,
      WORKSPACE_FIELDS,
      'workspace',
    );
    expect(
      (await t.sdk.call({ method: 'GET', path: '/v1/workspaces' })).body.workspaces.map((w: { id: string }) => w.id),
    ).toContain(id);
    const updated = await t.sdk.call({
      method: 'PUT',
      path: `/v1/workspaces/${id}`,
      body: { name: 'Renamed', settings: { retention: 'forever' } },
    });
    expect(updated.body.workspace).toMatchObject({ name: 'Renamed', settings: { retention: 'forever' } });
  });

  it('createContext and listContexts in the configured workspace once it is in use; its schema', async () => {
    // The workspace comes into being with the client's first write.
    await t.sdk.call({
      method: 'POST',
      path: '/v1/memories',
      body: {
        content: 'first note',
        workspace_id: 'sdk-ws',
        importance: 0.5,
        tags: [],
        metadata: {},
        associations: [],
      },
    });
    const context = await t.sdk.call({
      method: 'POST',
      path: '/v1/workspaces/sdk-ws/contexts',
      body: { name: 'frontend', description: 'UI work', settings: {} },
    });
    expect(context.status, context.errorMessage).toBe(201);
    expectFields(
      context.body.context,
      ['id', 'workspace_id', 'name', 'settings', 'created_at', 'updated_at'],
      'context',
    );
    const contexts = await t.sdk.call({ method: 'GET', path: '/v1/workspaces/sdk-ws/contexts' });
    expect(contexts.body.contexts.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['frontend']));

    const schema = await t.sdk.call({ method: 'GET', path: '/v1/workspaces/sdk-ws/schema' });
    expectFields(schema.body, ['relationship_types', 'memory_subtypes', 'can_customize'], 'schema');
    expect(schema.body.relationship_types).toContain('causes');
  });

  it('exportWorkspace (NDJSON, no content type sent) and importWorkspace / importWorkspaceStream', async () => {
    for (const content of ['Export me one.', 'Export me two.']) {
      await t.sdk.call({
        method: 'POST',
        path: '/v1/memories',
        body: { content, workspace_id: 'sdk-ws', importance: 0.5, tags: ['export'], metadata: {}, associations: [] },
      });
    }
    const exported = await t.sdk.send('GET', '/v1/workspaces/sdk-ws/export');
    expect(exported.status, exported.errorMessage).toBe(200);
    const lines = (exported.body as string)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const header = lines.find((l) => l.type === 'header');
    expectFields(
      header,
      ['version', 'workspace_id', 'exported_at', 'total_memories', 'total_associations'],
      'export header',
    );
    const memories = lines.filter((l) => l.type === 'memory').map((l) => l.data);
    expect(memories.length).toBe(header.total_memories);
    expectFields(memories[0], MEMORY_FIELDS, 'exported memory');
    // exportWorkspace(id, { includeAssociations: false, offset, limit })
    const page = await t.sdk.send('GET', '/v1/workspaces/sdk-ws/export?include_associations=false&offset=1&limit=1');
    expect(
      (page.body as string)
        .trim()
        .split('\n')
        .filter((l) => JSON.parse(l).type === 'memory'),
    ).toHaveLength(1);

    // importWorkspace(id, data): the JSON form, into another workspace
    await t.sdk.call({ method: 'POST', path: '/v1/workspaces', body: { name: 'copy', settings: {} } });
    const target = (await t.sdk.call({ method: 'GET', path: '/v1/workspaces' })).body.workspaces.find(
      (w: { name: string }) => w.name === 'copy',
    ).id as string;
    const data = {
      version: header.version,
      workspace_id: 'sdk-ws',
      exported_at: header.exported_at,
      total_memories: memories.length,
      total_associations: 0,
      memories,
      associations: [],
    };
    const imported = await t.sdk.call({ method: 'POST', path: `/v1/workspaces/${target}/import`, body: { data } });
    expect(imported.status, imported.errorMessage).toBe(200);
    expectFields(imported.body, ['imported', 'skipped_duplicates', 'errors', 'details'], 'import result');
    expect(imported.body).toMatchObject({ imported: memories.length, errors: 0 });

    // importWorkspaceStream(id, ndjson): the export text as is, with its own content type
    const again = await t.sdk.send(
      'POST',
      `/v1/workspaces/${target}/import`,
      exported.body as string,
      'application/x-ndjson',
    );
    expect(again.status, again.errorMessage).toBe(200);
    expect(again.body).toMatchObject({ imported: 0, skipped_duplicates: memories.length, errors: 0 });
  });

  it('an SDK configured with an API key sends it as a bearer token', async () => {
    const keyed = wireClient(t.server.url, { apiKey: 'not-checked-without-auth', workspaceId: 'sdk-ws' });
    expect((await keyed.call({ method: 'GET', path: '/v1/workspaces/sdk-ws' })).status).toBe(200);
  });
});
