import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { client, startServer, type TestServer } from '../support/server.js';
import { exerciseEveryTool } from './scenario.js';
import { connectHttp, fakeModel, type McpTestClient } from './support.js';

describe('MCP over streamable HTTP (/mcp)', () => {
  let fake: FakeLlmServer;
  let server: TestServer;
  let mcp: McpTestClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ respond: fakeModel });
    server = await startServer({ llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
    mcp = await connectHttp(server.url);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.stop();
    await fake?.close();
  });

  it('calls every tool it lists, each doing its work', async () => {
    await exerciseEveryTool(mcp, 'mcp-http', { settle: () => server.drainTasks() });
    const listed = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toHaveLength(26);
    expect([...mcp.called].sort()).toEqual([...listed].sort());
  });

  it('answers a recall with what a model needs of each memory, not the store’s bookkeeping', async () => {
    const ws = { workspace_id: 'mcp-lean' };
    const flight = (
      await mcp.call('remember', { ...ws, content: 'My flight to Boston leaves at 7:45.', tags: ['trip'] })
    ).memory;
    await mcp.call('remember', { ...ws, content: 'Maya prefers email.', subject_id: 'cust-maya' });
    const recalled = await mcp.call('recall', { ...ws, query: 'flight to Boston', limit: 5 });
    const [first] = recalled.memories;
    expect(first).toEqual({
      id: flight.id,
      content: 'My flight to Boston leaves at 7:45.',
      type: flight.type,
      importance: 0.5,
      tags: ['trip'],
      created_at: flight.created_at,
      relevance_score: expect.any(Number),
      match_signals: expect.arrayContaining(['keyword']),
    });
    expect(Object.keys(recalled)).toEqual(['memories', 'total_count']);
    // A memory's own attribution stays.
    const maya = await mcp.call('recall', { ...ws, query: 'email', subject_id: 'cust-maya' });
    expect(maya.memories[0]).toMatchObject({ content: 'Maya prefers email.', subject_id: 'cust-maya' });
    // The HTTP API still answers the whole record.
    const http = await client(server.url).post('/v1/memories/recall', { ...ws, query: 'flight to Boston', limit: 5 });
    expect(http.body.memories[0]).toMatchObject({
      id: flight.id,
      content_hash: flight.content_hash,
      tenant_id: 'default',
    });
  });

  it('lists tools with their JSON schemas and effects', async () => {
    const { tools } = await mcp.client.listTools();
    const recall = tools.find((tool) => tool.name === 'recall')!;
    expect(recall.inputSchema.required).toEqual(['query']);
    expect(Object.keys(recall.inputSchema.properties!)).toEqual(
      expect.arrayContaining([
        'query',
        'types',
        'tags',
        'limit',
        'min_relevance',
        'traverse_depth',
        'detail_level',
        'session_id',
        'workspace_id',
      ]),
    );
    expect(recall.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // An argument with a default is the caller's to leave out, as in the OpenAPI document: `hard` is false unless asked.
    const forget = tools.find((tool) => tool.name === 'forget')!;
    expect(forget.inputSchema.properties!.hard).toMatchObject({ default: false });
    expect(forget.inputSchema.required).toEqual(['memory_id']);
    const defaultedYetRequired = tools.flatMap((tool) =>
      (tool.inputSchema.required ?? [])
        .filter(
          (name) => (tool.inputSchema.properties?.[name] as { default?: unknown } | undefined)?.default !== undefined,
        )
        .map((name) => `${tool.name}.${name}`),
    );
    expect(defaultedYetRequired).toEqual([]);
    expect(tools.find((tool) => tool.name === 'forget')!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('writes land in the workspace of X-Workspace-ID unless an argument names another, and the API sees them', async () => {
    const scoped = await connectHttp(server.url, { 'x-workspace-id': 'mcp-header' });
    try {
      const byHeader = (await scoped.call('remember', { content: 'Deploys happen on Thursdays.' })).memory;
      const byArgument = (
        await scoped.call('remember', { content: 'Releases are tagged by the CI bot.', workspace_id: 'mcp-argument' })
      ).memory;
      expect([byHeader.workspace_id, byArgument.workspace_id]).toEqual(['mcp-header', 'mcp-argument']);
      const api = client(server.url);
      expect((await api.get(`/v1/memories/${byHeader.id}?workspace_id=mcp-header`)).body.memory.content).toBe(
        'Deploys happen on Thursdays.',
      );
      expect((await api.get(`/v1/memories/${byArgument.id}?workspace_id=mcp-header`)).status).toBe(404);
    } finally {
      await scoped.close();
    }
  });

  it('reports failures as tool errors with the API’s code and message', async () => {
    expect(await mcp.fail('forget', { memory_id: 'mem_0000000000000000' })).toEqual({
      code: 'not_found',
      message: "memory 'mem_0000000000000000' was not found",
    });
    expect(
      (await mcp.fail('contradiction_resolve', { contradiction_id: 'ctr_missing', resolution: 'merge' })).code,
    ).toBe('not_found');
    // Arguments are checked as an API body is: the same code, message and details; nothing is written.
    expect(await mcp.fail('remember', { content: 'x', importance: 7, workspace_id: 'mcp-refused' })).toEqual({
      code: 'validation_error',
      message: 'invalid request: importance must be <= 1',
      details: [{ path: '/arguments/importance', message: 'must be <= 1' }],
    });
    expect((await client(server.url).get('/v1/workspaces/mcp-refused')).status).toBe(404);
    expect(await mcp.fail('recall', { query: 'anything', colour: 'blue' })).toMatchObject({
      code: 'validation_error',
      details: [{ path: '/arguments/colour', message: 'is not a known field' }],
    });
    expect((await mcp.fail('context_load', { session_id: 'sess_x', var: '1bad', query: 'q' })).details).toEqual([
      { path: '/arguments/var', message: expect.stringContaining('pattern') },
    ]);
  });

  it('serves resources: a workspace’s recent memories and its schema', async () => {
    const written = (
      await mcp.call('remember', {
        content: 'The staging database is rebuilt every night.',
        workspace_id: 'mcp-resources',
      })
    ).memory;
    const { resources } = await mcp.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        'memd://workspaces/mcp-resources/memories/recent',
        'memd://workspaces/mcp-resources/schema',
      ]),
    );
    const recent = await mcp.client.readResource({ uri: 'memd://workspaces/mcp-resources/memories/recent' });
    const listing = JSON.parse((recent.contents[0] as { text: string }).text);
    expect(listing).toMatchObject({ workspace_id: 'mcp-resources', total_count: 1 });
    expect(listing.memories.map((m: { id: string }) => m.id)).toEqual([written.id]);
    const schema = JSON.parse(
      (
        (await mcp.client.readResource({ uri: 'memd://workspaces/mcp-resources/schema' })).contents[0] as {
          text: string;
        }
      ).text,
    );
    expect(schema.memory_types).toEqual(['episodic', 'semantic', 'procedural', 'working']);
    expect(schema.relationship_types).toContain('solves');
    await expect(mcp.client.readResource({ uri: 'memd://workspaces/mcp-nowhere/schema' })).rejects.toThrow(/not_found/);
  });

  it('reads a workspace without creating it, and refuses a workspace name the API would refuse, creating nothing', async () => {
    const api = client(server.url);
    // Read-only tools answer an absent workspace as their routes do: not found, and it stays absent.
    expect((await mcp.fail('export_workspace', { workspace_id: 'mcp-absent-export' })).code).toBe('not_found');
    expect((await mcp.fail('contradictions_list', { workspace_id: 'mcp-absent-ctr' })).code).toBe('not_found');
    expect((await api.get('/v1/workspaces/mcp-absent-export')).status).toBe(404);
    expect((await api.get('/v1/workspaces/mcp-absent-ctr')).status).toBe(404);

    await expect(mcp.client.readResource({ uri: 'memd://workspaces/bad%20ws/memories/recent' })).rejects.toThrow(
      /validation_error/,
    );
    await expect(mcp.client.readResource({ uri: 'memd://workspaces/%E0%A4%A/schema' })).rejects.toThrow(
      /validation_error: workspace_id: is not valid percent-encoding/,
    );
    await expect(mcp.client.getPrompt({ name: 'use_memory', arguments: { workspace_id: 'a/b c' } })).rejects.toThrow(
      /validation_error/,
    );
    const badHeader = await connectHttp(server.url, { 'x-workspace-id': 'mcp hdr bad' });
    try {
      expect(await badHeader.fail('remember', { content: 'Lost in a bad name.' })).toMatchObject({
        code: 'validation_error',
        details: [{ path: 'X-Workspace-ID', message: expect.stringContaining('not a workspace id') }],
      });
    } finally {
      await badHeader.close();
    }
    const names = (await api.get('/v1/workspaces')).body.workspaces.map((w: { id: string }) => w.id);
    expect(names).not.toEqual(expect.arrayContaining(['bad ws']));
    expect(names.filter((id: string) => !/^[A-Za-z0-9_.:@-]+$/.test(id))).toEqual([]);
    expect(names).toContain('mcp-resources');
  });

  it('offers a prompt that primes an agent to use memory, with what happened lately', async () => {
    await mcp.call('remember', { content: 'The customer asked for weekly reports.', workspace_id: 'mcp-prompt' });
    const { prompts } = await mcp.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['use_memory']);
    const prompt = await mcp.client.getPrompt({
      name: 'use_memory',
      arguments: { task: 'Draft the weekly report', workspace_id: 'mcp-prompt' },
    });
    const text = prompt.messages[0]!.content.type === 'text' ? prompt.messages[0]!.content.text : '';
    expect(text).toContain('`recall`');
    expect(text).toContain('The task at hand: Draft the weekly report');
    expect(text).toMatch(/1 new memory|1 memory/);
  });

  it('advertises no list changes, which a server built per request could not send', async () => {
    const capabilities = mcp.client.getServerCapabilities()!;
    expect(Object.keys(capabilities).sort()).toEqual(['prompts', 'resources', 'tools']);
    for (const kind of ['tools', 'resources', 'prompts'] as const)
      expect(capabilities[kind]?.listChanged).not.toBe(true);
  });

  it('refuses a tool call whose arguments are not an object as invalid params (-32602), writing nothing', async () => {
    const before = (await client(server.url).get('/v1/memories?workspace_id=_default&limit=100')).body.total_count;
    for (const args of ['remember this', ['remember this'], null, 7]) {
      const answer = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'remember', arguments: args },
        }),
      });
      expect(answer.status).toBe(200);
      const body = await answer.json();
      expect(body, JSON.stringify(args)).toMatchObject({ id: 9, error: { code: -32602 } });
    }
    expect((await client(server.url).get('/v1/memories?workspace_id=_default&limit=100')).body.total_count).toBe(
      before,
    );
  });

  it('answers an empty batch as JSON-RPC says: one Invalid Request error (-32600)', async () => {
    const answer = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '[]',
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 }, id: null });
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    const get = await fetch(`${server.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(`${server.url}/mcp`, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('MEMD_MCP_ENABLED=false', () => {
  it('serves no /mcp, and the API as before', async () => {
    const server = await startServer({ env: { MEMD_MCP_ENABLED: 'false' } });
    try {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(response.status).toBe(404);
      expect((await client(server.url).post('/v1/memories', { content: 'Still here.' })).status).toBe(201);
    } finally {
      await server.stop();
    }
  });
});

describe('MEMD_RATE_LIMIT_PER_MINUTE on /mcp', () => {
  it('counts MCP requests per client, and answers beyond the limit with the API’s 429', async () => {
    const server = await startServer({ env: { MEMD_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const list = () =>
        fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        });
      for (let i = 0; i < 3; i++) expect((await list()).status).toBe(200);
      const refused = await list();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    } finally {
      await server.stop();
    }
  });
});
