import { describe, expect, it } from 'vitest';
import { useClientServer } from './server.js';

/**
 * The calls of the SDK and the MCP server (v0.0.6) that carry no body yet say `Content-Type: application/json`
 * (DELETE, and POSTs with nothing to send). An empty body with a JSON content type is a request without a body.
 */
describe('body-less calls with a JSON content type', () => {
  const t = useClientServer({ workspaceId: 'bodyless' });

  const remember = async (content: string) =>
    (
      await t.sdk.call({
        method: 'POST',
        path: '/v1/memories',
        body: { content, workspace_id: 'bodyless', importance: 0.5, tags: [], metadata: {}, associations: [] },
      })
    ).body.memory.id as string;

  it('forget (soft and hard) — SDK forget, MCP memory_forget', async () => {
    const soft = await remember('Forget me softly.');
    const res = await t.sdk.call({ method: 'DELETE', path: `/v1/memories/${soft}?hard=false` });
    expect(res.status, res.errorMessage).toBe(204);
    expect((await t.sdk.call({ method: 'GET', path: `/v1/memories/${soft}` })).body.memory.status).toBe('deleted');
    const hard = await remember('Forget me for good.');
    expect((await t.sdk.call({ method: 'DELETE', path: `/v1/memories/${hard}?hard=true` })).status).toBe(204);
    expect((await t.sdk.call({ method: 'GET', path: `/v1/memories/${hard}` })).status).toBe(404);
  });

  it('deleteSession — and MCP memory_session_end (commit, then delete): the session is gone', async () => {
    const session = (
      await t.sdk.call({
        method: 'POST',
        path: '/v1/sessions',
        body: { workspace_id: 'bodyless', ttl_seconds: 3600, metadata: {}, working_memory: {}, briefing: false },
      })
    ).body.session.id as string;
    t.sdk.state.sessionId = session;
    await t.sdk.call({
      method: 'POST',
      path: `/v1/sessions/${session}/commit`,
      body: { min_importance: 0.5, deduplicate: true, max_memories: 50 },
    });
    const ended = await t.sdk.call({ method: 'DELETE', path: `/v1/sessions/${session}` });
    t.sdk.state.sessionId = undefined;
    expect(ended.status, ended.errorMessage).toBe(204);
    expect((await t.sdk.call({ method: 'GET', path: `/v1/sessions/${session}` })).status).toBe(404);
  });

  it('contextInspect (query, no body), contextCheckpoint, contextCleanup', async () => {
    const session = (
      await t.sdk.call({
        method: 'POST',
        path: '/v1/sessions',
        body: { workspace_id: 'bodyless', ttl_seconds: 3600, metadata: {}, working_memory: {}, briefing: false },
      })
    ).body.session.id as string;
    t.sdk.state.sessionId = session;
    await t.sdk.call({
      method: 'POST',
      path: '/v1/context/execute',
      body: { code: 'greeting = "hello there"', return_result: true },
    });
    const one = await t.sdk.call({ method: 'POST', path: '/v1/context/inspect?variable=greeting&preview_chars=5' });
    expect(one.status, one.errorMessage).toBe(200);
    expect(one.body).toMatchObject({ variable: 'greeting', type: 'str' });
    expect(one.body.preview.length).toBeLessThanOrEqual(8);
    const all = await t.sdk.call({ method: 'POST', path: '/v1/context/inspect' });
    expect(all.status, all.errorMessage).toBe(200);
    expect(all.body.variable_count).toBe(1);
    expect((await t.sdk.call({ method: 'POST', path: '/v1/context/checkpoint' })).status).toBe(204);
    expect((await t.sdk.call({ method: 'DELETE', path: '/v1/context/cleanup' })).status).toBe(204);
    expect((await t.sdk.call({ method: 'GET', path: '/v1/context/status' })).body.exists).toBe(false);
    t.sdk.state.sessionId = undefined;
  });

  it('decomposeThread and deleteThread — also as the MCP chat tools call them', async () => {
    for (const base of ['/v1/threads', '/v1/chat/threads']) {
      const thread = (await t.sdk.call({ method: 'POST', path: base, body: { workspace_id: 'bodyless', title: base } }))
        .body.thread.id as string;
      await t.sdk.call({
        method: 'POST',
        path: `${base}/${thread}/messages?workspace_id=bodyless`,
        body: { messages: [{ role: 'user', content: 'I prefer tea over coffee in the mornings.' }] },
      });
      const decomposed = await t.sdk.call({
        method: 'POST',
        path: `${base}/${thread}/decompose?workspace_id=bodyless`,
      });
      expect(decomposed.status, decomposed.errorMessage).toBe(200);
      expect(decomposed.body).toMatchObject({ thread_id: thread, workspace_id: 'bodyless', messages_processed: 1 });
      expect((await t.sdk.call({ method: 'DELETE', path: `${base}/${thread}?workspace_id=bodyless` })).status).toBe(
        204,
      );
      expect((await t.sdk.call({ method: 'GET', path: `${base}/${thread}?workspace_id=bodyless` })).status).toBe(404);
    }
  });

  it('reprocessDocument without options, cancelJob, deleteDocument', async () => {
    const form = new FormData();
    form.append('file', new Blob(['A short note for ingestion.'], { type: 'text/plain' }), 'note.txt');
    const { document } = (await t.sdk.send('POST', '/v1/documents', form)).body;
    await t.server.drainTasks();
    // A cancelled queued job takes the original with it (unless retained): reprocess a completed document instead.
    const again = await t.sdk.call({ method: 'POST', path: `/v1/documents/${document.id}/reprocess` });
    expect(again.status, again.errorMessage).toBe(202);
    const cancelled = await t.sdk.call({ method: 'POST', path: `/v1/documents/jobs/${again.body.job.id}/cancel` });
    expect(cancelled.status, cancelled.errorMessage).toBe(200);
    expect(cancelled.body.job.status).toBe('cancelled');
    expect(
      (await t.sdk.call({ method: 'DELETE', path: `/v1/documents/${document.id}?delete_memories=false` })).status,
    ).toBe(204);
    expect((await t.sdk.call({ method: 'GET', path: `/v1/documents/${document.id}` })).status).toBe(404);
  });

  it('skills.delete and mcpServers.delete', async () => {
    const skill = (
      await t.sdk.call({
        method: 'POST',
        path: '/v1/skills',
        body: {
          name: 'gone',
          description: 'x',
          version: '0.1.0',
          body: 'x',
          metadata: {},
          source_mode: 'server',
          workspace_id: 'bodyless',
        },
      })
    ).body.skill.id as string;
    expect((await t.sdk.call({ method: 'DELETE', path: `/v1/skills/${skill}` })).status).toBe(204);
    const server = (
      await t.sdk.call({
        method: 'POST',
        path: '/v1/mcp-servers',
        body: {
          name: 'gone',
          transport: 'stdio',
          command: 'x',
          args: [],
          env: {},
          headers: {},
          metadata: {},
          source_mode: 'server',
          enabled: true,
          workspace_id: 'bodyless',
        },
      })
    ).body.mcp_server.id as string;
    expect((await t.sdk.call({ method: 'DELETE', path: `/v1/mcp-servers/${server}` })).status).toBe(204);
  });
});
