import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalDocx, uploadDocument } from '../support/documents.js';
import { fillPath, listRoutes, requiresNothing, routeName, type Route } from '../support/routes.js';
import { client, startServer, type ApiResponse, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

/** A call as the clients make it: `Content-Type: application/json` and nothing after it. */
const bodiless = (method: string, path: string, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  api.raw(method, path, undefined, { 'content-type': 'application/json', ...headers });

/** The same call without a Content-Type. */
const bare = (method: string, path: string): Promise<ApiResponse> => api.raw(method, path);

const bodyPaths = (response: ApiResponse): string[] =>
  ((response.body?.details ?? []) as Array<{ path: string }>).map((d) => d.path).filter((p) => p.startsWith('/body'));

describe('a request without a body is a request without a body', () => {
  it('on every route: an empty JSON body answers as no body does; it is refused only where the body has a required field', async () => {
    // The import (next test) and the upload (multipart only: 415 to anything else) read other media types.
    const otherMedia = ['POST /v1/workspaces/{workspace_id}/import', 'POST /v1/documents'];
    const routes = (await listRoutes(api)).filter(
      (r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method) && !otherMedia.includes(routeName(r)),
    );
    expect(routes.length).toBeGreaterThan(60);
    const jsonBody = (route: Route) => route.bodies['application/json'];
    let optional = 0;
    for (const route of routes) {
      // Objects that do not exist: every route gets as far as looking for them, and nothing is deleted.
      const path = fillPath(route, (name) => (name === '*' ? 'nothing.md' : 'missing-id'));
      const empty = await bodiless(route.method, path);
      const none = await bare(route.method, path);
      const name = routeName(route);
      expect(empty.status, `${name}: ${JSON.stringify(empty.body)}`).toBeLessThan(500);
      expect(empty.body?.code, name).not.toBe('invalid_json');
      expect(empty.status, name).not.toBe(415);
      expect({ status: empty.status, code: empty.body?.code }, name).toEqual({
        status: none.status,
        code: none.body?.code,
      });
      const schema = jsonBody(route);
      if (schema && !requiresNothing(schema)) {
        expect(empty.status, name).toBe(422);
        expect(bodyPaths(empty), name).toEqual(['/body']);
      } else {
        optional++;
        expect(bodyPaths(empty), `${name}: ${JSON.stringify(empty.body)}`).toEqual([]);
      }
    }
    expect(optional).toBeGreaterThan(20);
  });

  it('the import takes no empty body either way: its JSON form needs `data`', async () => {
    const path = '/v1/workspaces/_default/import';
    for (const response of [await bodiless('POST', path), await bare('POST', path)]) {
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ path: '/body' }] });
    }
  });

  describe('the calls clients make with a JSON content type and no body do what they say', () => {
    it('memories: update nothing, decay by the default rate, forget', async () => {
      const memory = (await api.post('/v1/memories', { content: 'The build uses pnpm', importance: 0.6 })).body.memory;
      const unchanged = await bodiless('PUT', `/v1/memories/${memory.id}`);
      expect(unchanged.status).toBe(200);
      expect(unchanged.body.memory).toMatchObject({ content: 'The build uses pnpm', importance: 0.6 });
      const decayed = await bodiless('POST', `/v1/memories/${memory.id}/decay`);
      expect(decayed.status).toBe(200);
      expect(decayed.body.memory.importance).toBeCloseTo(0.5, 5);
      expect((await bodiless('DELETE', `/v1/memories/${memory.id}`)).status).toBe(204);
      expect((await api.get(`/v1/memories/${memory.id}`)).body.memory?.status ?? 'gone').not.toBe('active');
    });

    it('associations: delete one', async () => {
      const a = (await api.post('/v1/memories', { content: 'Service A calls service B' })).body.memory;
      const b = (await api.post('/v1/memories', { content: 'Service B owns the ledger' })).body.memory;
      const link = (await api.post(`/v1/memories/${a.id}/associate`, { target_id: b.id, relationship: 'depends_on' }))
        .body.association;
      expect((await bodiless('DELETE', `/v1/memories/${a.id}/associations/${link.id}`)).status).toBe(204);
      expect(
        (await api.get(`/v1/memories/${a.id}/associations`)).body.associations.map((x: { id: string }) => x.id),
      ).not.toContain(link.id);
    });

    it('sessions: touch, commit, delete', async () => {
      const session = (await api.post('/v1/sessions', { ttl_seconds: 600 })).body.session;
      await api.post(`/v1/sessions/${session.id}/memory`, { key: 'decision', value: 'We deploy on Fridays never' });
      const touched = await bodiless('POST', `/v1/sessions/${session.id}/touch`);
      expect(touched.status).toBe(200);
      expect(Date.parse(touched.body.expires_at)).toBeGreaterThanOrEqual(Date.parse(session.expires_at));
      const committed = await bodiless('POST', `/v1/sessions/${session.id}/commit`);
      expect(committed.status).toBe(200);
      expect(committed.body).toMatchObject({
        session_id: session.id,
        memories_extracted: expect.any(Number),
        memories_created: expect.any(Number),
      });
      expect((await bodiless('DELETE', `/v1/sessions/${session.id}`)).status).toBe(204);
      expect((await api.get(`/v1/sessions/${session.id}`)).status).toBe(404);
    });

    it('contradictions: scan', async () => {
      const scan = await bodiless('POST', '/v1/workspaces/_default/contradictions/scan');
      expect(scan.status).toBe(200);
      expect(scan.body).toMatchObject({ workspace_id: '_default', contradictions_found: expect.any(Number) });
    });

    it('threads: decompose, delete a message, delete the thread', async () => {
      const thread = (await api.post('/v1/threads', { title: 'Standup' })).body.thread;
      const added = await api.post(`/v1/threads/${thread.thread_id}/messages`, {
        messages: [
          { role: 'user', content: 'I moved the standup to 9:30' },
          { role: 'assistant', content: 'Noted' },
        ],
      });
      const decomposed = await bodiless('POST', `/v1/threads/${thread.thread_id}/decompose`);
      expect(decomposed.status).toBe(200);
      expect(decomposed.body).toMatchObject({ thread_id: thread.thread_id, messages_processed: 2 });
      expect(
        (await bodiless('DELETE', `/v1/threads/${thread.thread_id}/messages/${added.body.messages[1].message_id}`))
          .status,
      ).toBe(204);
      expect((await bodiless('DELETE', `/v1/threads/${thread.thread_id}`)).status).toBe(204);
      expect((await api.get(`/v1/threads/${thread.thread_id}`)).status).toBe(404);
    });

    it('documents: cancel a job, reprocess, delete', async () => {
      const upload = await uploadDocument(
        server.url,
        { name: 'notes.docx', bytes: await minimalDocx(['The office closes at six.']) },
        { retain_original: 'true' },
      );
      expect(upload.status).toBe(202);
      const cancelled = await bodiless('POST', `/v1/documents/jobs/${upload.body.job.id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.job.status).toBe('cancelled');
      const reprocessed = await bodiless('POST', `/v1/documents/${upload.body.document.id}/reprocess`);
      expect(reprocessed.status).toBe(202);
      expect(reprocessed.body.job.status).toBe('queued');
      await server.drainTasks();
      expect((await bodiless('DELETE', `/v1/documents/${upload.body.document.id}`)).status).toBe(204);
      expect((await api.get(`/v1/documents/${upload.body.document.id}`)).status).toBe(404);
    });

    it('context environment: checkpoint and cleanup', async () => {
      const session = (await api.post('/v1/sessions', {})).body.session;
      const headers = { 'x-session-id': session.id };
      expect((await bodiless('POST', '/v1/context/checkpoint', headers)).status).toBe(204);
      expect((await bodiless('DELETE', '/v1/context/cleanup', headers)).status).toBe(204);
    });
  });
});
