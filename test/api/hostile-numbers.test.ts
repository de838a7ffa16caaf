import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BatchCreateFlat,
  BatchCreateNested,
  BatchDelete,
  BatchUpdateFlat,
  BatchUpdateNested,
} from '../../src/http/schemas/batch.js';
import { MAX_POSITION } from '../../src/http/schemas/common.js';
import { UploadFields } from '../../src/http/schemas/document.js';
import { ImportedAssociation, ImportedMemory } from '../../src/http/schemas/portability.js';
import { fillPath, listRoutes, numbersIn, routeName, sampleOf, type Schema } from '../support/routes.js';
import { client, startServer, type ApiResponse, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

const TWO_TO_63 = '9223372036854775808';
const detailPaths = (response: ApiResponse): string[] =>
  ((response.body?.details ?? []) as Array<{ path: string }>).map((d) => d.path);
const bounded = (schema: Schema) =>
  (schema.minimum !== undefined || typeof schema.exclusiveMinimum === 'number') &&
  (schema.maximum !== undefined || typeof schema.exclusiveMaximum === 'number');
const ids = (name: string) => (name === 'community_id' ? '0' : name === '*' ? 'missing.md' : 'missing-id');

describe('every number a client sends has documented bounds', () => {
  it('in the schema of every route (path, query, header, body) and of what is checked outside routes (batch items, import lines, upload fields)', async () => {
    const found: Array<{ where: string; schema: Schema }> = [];
    for (const route of await listRoutes(api)) {
      for (const parameter of route.parameters)
        found.push(...numbersIn(parameter.schema, `${routeName(route)} ${parameter.in} ${parameter.name}`));
      for (const [type, schema] of Object.entries(route.bodies))
        found.push(...numbersIn(schema, `${routeName(route)} body (${type})`));
    }
    const outside = {
      BatchCreateFlat,
      BatchCreateNested,
      BatchUpdateFlat,
      BatchUpdateNested,
      BatchDelete,
      ImportedMemory,
      ImportedAssociation,
      UploadFields,
    };
    for (const [name, schema] of Object.entries(outside)) found.push(...numbersIn(schema as unknown as Schema, name));
    expect(found.length).toBeGreaterThan(50);
    // A vector's components: any number; one that float32 cannot hold makes the import embed the memory again.
    const unbounded = found
      .filter(({ where, schema }) => !bounded(schema) && where !== 'ImportedMemory.embedding[]')
      .map(({ where }) => where);
    expect(unbounded).toEqual([]);
  });

  it('offsets and limits beyond their bound (offset ≤ 2^31-1) are 422 on every route that takes them, naming the parameter', async () => {
    const paged = (await listRoutes(api)).filter((r) =>
      r.parameters.some((p) => p.in === 'query' && (p.name === 'offset' || p.name === 'limit')),
    );
    expect(paged.length).toBeGreaterThanOrEqual(10);
    for (const route of paged) {
      for (const name of ['offset', 'limit'].filter((n) =>
        route.parameters.some((p) => p.in === 'query' && p.name === n),
      )) {
        for (const value of [TWO_TO_63, String(MAX_POSITION + 1), '-1', '1e999']) {
          const response = await api.raw(route.method, `${fillPath(route, ids)}?${name}=${value}`);
          expect(response.status, `${routeName(route)} ${name}=${value}: ${JSON.stringify(response.body)}`).toBe(422);
          expect(detailPaths(response), routeName(route)).toContain(`/querystring/${name}`);
        }
      }
    }
  });

  it('every other number in a query is refused beyond its bound too', async () => {
    for (const route of await listRoutes(api)) {
      for (const parameter of route.parameters.filter((p) => p.in === 'query' && numbersIn(p.schema, '').length > 0)) {
        const body = route.bodies['application/json']
          ? JSON.stringify(sampleOf(route.bodies['application/json']))
          : undefined;
        const response = await api.raw(route.method, `${fillPath(route, ids)}?${parameter.name}=${TWO_TO_63}`, body);
        expect(response.status, `${routeName(route)} ${parameter.name}`).toBe(422);
        expect(detailPaths(response), routeName(route)).toContain(`/querystring/${parameter.name}`);
      }
    }
  });

  it('every number at the top of a JSON body is refused beyond its bound, naming the field', async () => {
    let checked = 0;
    for (const route of await listRoutes(api)) {
      const schema = route.bodies['application/json'];
      if (!schema?.properties) continue;
      for (const [field, property] of Object.entries(schema.properties)) {
        if (numbersIn(property, field).length === 0 || property.type === 'object' || property.type === 'array')
          continue;
        for (const value of ['1e308', '-1e308']) {
          const body = JSON.stringify({ ...(sampleOf(schema) as object), [field]: '__N__' }).replace('"__N__"', value);
          const response = await api.raw(route.method, fillPath(route, ids), body, {
            'x-session-id': 'missing-session',
          });
          expect(response.status, `${routeName(route)} ${field}=${value}: ${JSON.stringify(response.body)}`).toBe(422);
          expect(detailPaths(response), `${routeName(route)} ${field}`).toContain(`/body/${field}`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});

describe('the numbers that reached the database', () => {
  it('a thread page at offset 2^63 or after index 2^63 is 422, and a page within the bounds is empty', async () => {
    const thread = (await api.post('/v1/threads', {})).body.thread;
    await api.post(`/v1/threads/${thread.thread_id}/messages`, { messages: [{ role: 'user', content: 'hello' }] });
    for (const path of [
      '/v1/threads',
      `/v1/threads/${thread.thread_id}/messages`,
      `/v1/threads/${thread.thread_id}/full`,
    ]) {
      const response = await api.get(`${path}?offset=${TWO_TO_63}`);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'validation_error', details: [{ path: '/querystring/offset' }] });
    }
    expect((await api.get(`/v1/threads/${thread.thread_id}/messages?after_index=${TWO_TO_63}`)).status).toBe(422);
    const last = await api.get(
      `/v1/threads/${thread.thread_id}/messages?offset=${MAX_POSITION}&after_index=${MAX_POSITION}`,
    );
    expect(last.status).toBe(200);
    expect(last.body.messages).toEqual([]);
  });

  it('an export window beyond the bounds is 422; an import line whose access_count is beyond them is an error of that line', async () => {
    expect((await api.get(`/v1/workspaces/_default/export?offset=${TWO_TO_63}`)).status).toBe(422);
    expect((await api.get(`/v1/workspaces/_default/export?limit=${TWO_TO_63}`)).status).toBe(422);
    await api.post('/v1/workspaces', { id: 'numbers', name: 'Numbers' });
    const lines = [
      `{"type":"memory","data":{"content":"counted too often","access_count":${TWO_TO_63}}}`,
      '{"type":"memory","data":{"content":"counted fine","access_count":3}}',
    ].join('\n');
    const imported = await api.raw('POST', '/v1/workspaces/numbers/import', lines, {
      'content-type': 'application/x-ndjson',
    });
    expect(imported.body).toMatchObject({ imported: 1, errors: 1 });
    const memories = (await api.get('/v1/memories?workspace_id=numbers')).body.memories;
    expect(memories.map((m: { content: string }) => m.content)).toEqual(['counted fine']);
  });

  it('an imported vector that float32 cannot hold is replaced by a fresh embedding, and recall still ranks', async () => {
    await api.post('/v1/workspaces', { id: 'vectors', name: 'Vectors' });
    await api.post('/v1/memories', {
      workspace_id: 'vectors',
      content: 'a memory whose export shows the vector width',
    });
    const exported = String((await api.get('/v1/workspaces/vectors/export?include_embeddings=true')).body);
    const dims = (
      exported
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((l) => l.type === 'memory').data.embedding as number[]
    ).length;
    expect(dims).toBeGreaterThan(8);
    const line = JSON.stringify({
      type: 'memory',
      data: { content: 'the vault code is in the red binder', embedding: Array.from({ length: dims }, () => 1e308) },
    });
    const imported = await api.raw('POST', '/v1/workspaces/vectors/import', line, {
      'content-type': 'application/x-ndjson',
    });
    expect(imported.body).toMatchObject({ imported: 1, errors: 0 });
    const reexported = String((await api.get('/v1/workspaces/vectors/export?include_embeddings=true')).body)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const vault = reexported.find((l) => l.type === 'memory' && l.data.content.includes('vault')).data
      .embedding as unknown[];
    expect(vault.length).toBeGreaterThan(0);
    expect(vault.every((x) => typeof x === 'number' && Number.isFinite(x))).toBe(true);
    const recalled = await api.post('/v1/memories/recall', {
      workspace_id: 'vectors',
      query: 'where is the vault code',
    });
    expect(recalled.status).toBe(200);
    expect(recalled.body.memories[0]).toMatchObject({ content: 'the vault code is in the red binder' });
    expect(Number.isFinite(recalled.body.memories[0].relevance_score)).toBe(true);
  });
});
