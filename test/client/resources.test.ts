import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemdClient, NotFoundError, type ExportLine } from '../../packages/client/src/index.js';
import { startServer, type TestServer } from '../support/server.js';

/** One or more calls of every resource group of the client against a real server, checking what comes back. */
let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = new MemdClient({ baseUrl: server.url, workspaceId: 'client-ws' });
  await memd.workspaces.create({ id: 'client-ws', name: 'Client' });
});
afterAll(() => server.stop());

describe('the client, group by group, against a real server', () => {
  it('health', async () => {
    expect(await memd.health.live()).toEqual({ status: 'healthy' });
    expect((await memd.health.ready()).status).toBe('ready');
  });

  it('workspaces and contexts', async () => {
    const { workspace } = await memd.workspaces.create({ id: 'other-ws', name: 'Other' });
    expect(workspace).toMatchObject({ id: 'other-ws', name: 'Other' });
    expect((await memd.workspaces.list()).workspaces.map((w) => w.id)).toEqual(
      expect.arrayContaining(['client-ws', 'other-ws']),
    );
    expect((await memd.workspaces.update('other-ws', { name: 'Renamed' })).workspace.name).toBe('Renamed');
    expect((await memd.workspaces.get('other-ws')).workspace.name).toBe('Renamed');
    const { context } = await memd.workspaces.contexts.create('other-ws', { id: 'notes', name: 'Notes' });
    expect(context.id).toBe('notes');
    expect((await memd.workspaces.contexts.list('other-ws')).contexts.map((c) => c.id)).toContain('notes');
    expect((await memd.workspaces.schema('other-ws')).memory_subtypes.length).toBeGreaterThan(0);
    await memd.workspaces.delete('other-ws');
    await expect(memd.workspaces.get('other-ws')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('memories: write, read, change, recall, reflect, batch, associations, delete', async () => {
    const created = await memd.memories.create({
      content: 'The deploy script lives in ops/deploy.sh',
      tags: ['ops'],
      importance: 0.8,
    });
    expect(created.action).toBe('created');
    const memory = created.memory;
    expect(memory).toMatchObject({
      workspace_id: 'client-ws',
      content: 'The deploy script lives in ops/deploy.sh',
      tags: ['ops'],
      importance: 0.8,
    });
    expect((await memd.memories.get(memory.id)).memory.id).toBe(memory.id);
    expect((await memd.memories.update(memory.id, { pinned: true })).memory.pinned).toBe(true);
    expect((await memd.memories.list({ tags: ['ops'] })).memories.map((m) => m.id)).toEqual([memory.id]);

    const recalled = await memd.memories.recall({ query: 'where is the deploy script?' });
    expect(recalled.memories[0]?.id).toBe(memory.id);
    expect((await memd.memories.reflect({ query: 'where is the deploy script?' })).source_memories).toContain(
      memory.id,
    );

    const batch = await memd.memories.batch({
      operations: [
        { op: 'create', content: 'Staging runs on Fridays' },
        { op: 'delete', memory_id: 'mem_missing' },
      ],
    });
    expect(batch).toMatchObject({ total_operations: 2, successful: 1, failed: 1 });
    const other = batch.results[0]!.memory_id!;

    const link = await memd.associations.create.withResponse(memory.id, {
      target_id: other,
      relationship: 'related_to',
    });
    expect(link.status).toBe(201);
    expect(
      (await memd.memories.associate(memory.id, { target_id: other, relationship: 'related_to', strength: 0.9 }))
        .association.strength,
    ).toBe(0.9);
    const edges = await memd.associations.list(memory.id);
    expect(edges.associations.map((a) => a.target_id)).toEqual([other]);
    expect((await memd.memories.traverse(memory.id, { max_depth: 2 })).paths.length).toBeGreaterThan(0);
    expect((await memd.memories.trace(memory.id)).memory.id).toBe(memory.id);
    await memd.associations.delete(memory.id, edges.associations[0]!.id);
    expect((await memd.associations.list(memory.id)).associations).toEqual([]);

    const decayed = await memd.memories.decay(other, { decay_rate: 0.2 });
    expect(decayed.memory.importance).toBeCloseTo(0.3);
    await memd.memories.delete(other, { hard: true });
    await expect(memd.memories.get(other)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('entities and contradictions', async () => {
    await memd.memories.create({ content: 'Ana prefers tea in the morning', subject_id: 'ana' });
    const derived = await memd.entities.derive('ana', {});
    expect(derived.subject_id).toBe('ana');
    expect((await memd.entities.card('ana')).entity_id).toBe('ana');
    expect((await memd.entities.insights('ana')).entity_id).toBe('ana');
    const scan = await memd.contradictions.scan('client-ws');
    expect(scan.workspace_id).toBe('client-ws');
    expect(Array.isArray((await memd.contradictions.list('client-ws')).contradictions)).toBe(true);
  });

  it('sessions and working memory', async () => {
    const { session, briefing } = await memd.sessions.start({ briefing: true });
    expect(session.workspace_id).toBe('client-ws');
    expect(briefing).not.toBeNull();
    expect(await memd.sessions.workingMemory.set(session.id, { key: 'goal', value: 'ship it' })).toMatchObject({
      key: 'goal',
      value: 'ship it',
    });
    expect(await memd.sessions.workingMemory.get(session.id)).toEqual({ goal: 'ship it' });
    expect((await memd.sessions.get(session.id)).session.id).toBe(session.id);
    expect((await memd.sessions.list()).sessions.map((s) => s.id)).toContain(session.id);
    expect((await memd.sessions.briefing({ lookback_minutes: 60 })).briefing).toBeDefined();
    expect((await memd.sessions.touch(session.id, { ttl_seconds: 600 })).session.id).toBe(session.id);
    expect((await memd.sessions.commit(session.id)).session_id).toBe(session.id);
    await memd.sessions.end(session.id);
    await expect(memd.sessions.get(session.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('the context sandbox of a session', async () => {
    const { session } = await memd.sessions.start();
    const inSession = memd.withSession(session.id);
    const ran = await inSession.context.execute({ code: 'x = 6 * 7\nx', return_result: true });
    expect(ran.error ?? null).toBeNull();
    expect(ran.result).toBe('42');
    expect(await inSession.context.inspect({ variable: 'x' })).toMatchObject({ variable: 'x', type: 'int' });
    expect((await inSession.context.status()).variables).toContain('x');
    await inSession.context.cleanup();
  });

  it('chat threads', async () => {
    const { thread } = await memd.threads.create({ title: 'Planning' });
    const appended = await memd.threads.append(thread.thread_id, {
      messages: [
        { role: 'user', content: 'We ship on Monday' },
        { role: 'assistant', content: 'Noted' },
      ],
    });
    expect(appended.messages.map((m) => m.index)).toEqual([0, 1]);
    expect((await memd.threads.messages(thread.thread_id, { order: 'desc' })).messages[0]!.content).toBe('Noted');
    expect((await memd.threads.full(thread.thread_id)).total_messages).toBe(2);
    expect((await memd.threads.update(thread.thread_id, { title: 'Plans' })).title).toBe('Plans');
    expect((await memd.threads.list()).threads.map((t) => t.thread_id)).toContain(thread.thread_id);
    expect((await memd.threads.decompose(thread.thread_id)).thread_id).toBe(thread.thread_id);
    await memd.threads.deleteMessage(thread.thread_id, appended.messages[1]!.message_id);
    expect((await memd.threads.get(thread.thread_id)).message_count).toBe(1);
    await memd.threads.delete(thread.thread_id);
    await expect(memd.threads.get(thread.thread_id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('graph and knowledgebase', async () => {
    await memd.workspaces.create({ id: 'graph-ws', name: 'Graph' });
    const graphWs = memd.withWorkspace('graph-ws');
    const a = (await graphWs.memories.create({ content: 'Postgres stores the orders' })).memory;
    const b = (await graphWs.memories.create({ content: 'The orders table is partitioned by month' })).memory;
    await graphWs.associations.create(a.id, { target_id: b.id, relationship: 'related_to' });
    expect(await graphWs.graph.stats()).toMatchObject({ node_count: 2, edge_count: 1 });
    expect((await graphWs.graph.snapshot({ max_nodes: 10 })).nodes.map((n) => n.id).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect((await graphWs.graph.analyze({})).stats.node_count).toBe(2);
    expect((await graphWs.graph.communities({ min_size: 1 })).communities.length).toBeGreaterThan(0);
    const generated = await graphWs.knowledgebase.generate.withResponse({ min_community_size: 1 });
    expect(generated.status).toBe(200);
    expect('article_count' in generated.data && generated.data.article_count).toBeGreaterThan(0);
    expect((await graphWs.knowledgebase.articles()).total).toBeGreaterThan(0);
  });

  it('documents: upload from bytes and from a stream, then read what ingestion made', async () => {
    const bytes = new TextEncoder().encode(
      '# Runbook\n\nRestart the queue worker when the backlog exceeds a thousand jobs.\n',
    );
    const uploaded = await memd.documents.upload(bytes, { tags: ['runbook'] }, { filename: 'runbook.md' });
    expect(uploaded.document).toMatchObject({ filename: 'runbook.md', document_type: 'markdown', tags: ['runbook'] });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('plain '));
        controller.enqueue(new TextEncoder().encode('text'));
        controller.close();
      },
    });
    const fromStream = await memd.documents.upload(stream, {}, { filename: 'note.txt' });
    expect(fromStream.document.size_bytes).toBe(10);
    await server.drainTasks();
    expect((await memd.documents.jobs.get(uploaded.job.id)).job.status).toBe('completed');
    expect((await memd.documents.get(uploaded.document.id)).document.status).toBe('completed');
    const pages = await memd.documents.pages(uploaded.document.id);
    expect(pages.pages[0]!.transcript).toContain('Restart the queue worker');
    expect((await memd.documents.page(uploaded.document.id, pages.pages[0]!.id)).page.id).toBe(pages.pages[0]!.id);
    expect((await memd.documents.search({ query: 'queue worker backlog' })).pages[0]!.document_id).toBe(
      uploaded.document.id,
    );
    expect((await memd.documents.memories(uploaded.document.id)).memories.length).toBeGreaterThan(0);
    expect((await memd.documents.list()).documents.length).toBe(2);
    await memd.documents.delete(fromStream.document.id);
    expect((await memd.documents.jobs.list()).jobs.map((j) => j.document_id)).toEqual([uploaded.document.id]);
  });

  it('skills, with files, manifest and bundle', async () => {
    const { skill } = await memd.skills.create({
      manifest: '---\nname: review\ndescription: Reviews pull requests\n---\nRead the diff first.\n',
    });
    expect(await memd.skills.manifest(skill.id)).toContain('Read the diff first.');
    expect(
      (await memd.skills.files.put.withResponse(skill.id, 'docs/checklist.md', { content: '- tests pass' })).status,
    ).toBe(201);
    expect((await memd.skills.files.get(skill.id, 'docs/checklist.md')).file.content).toBe('- tests pass');
    expect((await memd.skills.files.list(skill.id)).files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['SKILL.md', 'docs/checklist.md']),
    );
    const bundle = await memd.skills.bundle(skill.id);
    expect([bundle[0], bundle[1]]).toEqual([0x1f, 0x8b]); // gzip
    expect((await memd.skills.resolve({ names: ['review'] })).skills.map((s) => s.name)).toContain('review');
    await memd.skills.files.delete(skill.id, 'docs/checklist.md');
    await memd.skills.delete(skill.id);
    await expect(memd.skills.get(skill.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('MCP servers, applications, data providers', async () => {
    const { mcp_server: entry } = await memd.mcpServers.create({
      name: 'github',
      command: 'npx',
      env: { TOKEN: 'secret' },
    });
    expect(entry.env).toEqual({ TOKEN: '********' });
    expect((await memd.mcpServers.export({ reveal_secrets: true })).mcpServers.github).toMatchObject({
      command: 'npx',
      env: { TOKEN: 'secret' },
    });
    expect((await memd.mcpServers.list()).mcp_servers.map((s) => s.id)).toEqual([entry.id]);

    const app = await memd.applications.create({ name: 'Bot' });
    expect((await memd.applications.link.withResponse(app.id, 'client-ws', { enabled: true })).status).toBe(201);
    expect((await memd.applications.inWorkspace('client-ws')).applications.map((a) => a.id)).toEqual([app.id]);

    const { data_provider: provider } = await memd.dataProviders.create({ name: 'files', provider_type: 'local' });
    expect((await memd.dataProviders.sync(provider.id)).provider_id).toBe(provider.id);
    expect((await memd.dataProviders.list()).total_count).toBe(1);
  });

  it('API keys (local mode: every caller is the admin)', async () => {
    const { api_key } = await memd.apiKeys.create({ name: 'ci', workspaces: ['client-ws'] });
    expect(api_key.key).toMatch(/\S{20,}/);
    expect((await memd.apiKeys.list()).api_keys.map((k) => k.id)).toContain(api_key.id);
    await memd.apiKeys.revoke(api_key.id);
  });

  it('export lines are typed by their type', async () => {
    await memd.memories.create({ content: 'Something to export' });
    const kinds: ExportLine['type'][] = [];
    for await (const line of memd.workspaces.export('client-ws')) kinds.push(line.type);
    expect(kinds[0]).toBe('header');
    expect(kinds.at(-1)).toBe('footer');
    expect(kinds).toContain('memory');
  });
});
