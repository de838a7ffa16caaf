import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { minimalDocx, uploadDocument } from '../support/documents.js';
import { fillPath, listRoutes, routeName, sampleOf, type Route, type Schema } from '../support/routes.js';
import { client, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

/**
 * Every route of the app, sent what a hostile or broken client sends: bodies nested too deep, of the wrong type,
 * not UTF-8, not JSON, in other media types; numbers too large, negative, not numbers; path and query values with
 * NUL, broken percent-encoding, huge lengths. Whatever comes back is never a server failure, is a JSON error body
 * when it is a refusal, and a refusal changes nothing.
 */

let server: TestServer;
let api: Client;
/** For the probes: sends their bytes and headers as they are, whatever the API's types say. */
let wire: MemdClient;
const WS = 'sweep';
/** Path parameters of objects that exist (seeded below), by parameter name. */
const real: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
  wire = memdClient(server.url);
  await api.post('/v1/workspaces', { id: WS, name: 'Sweep' });
  const ws = { workspace_id: WS };
  const a = (
    await api.post('/v1/memories', { ...ws, content: 'Ana leads the platform team', subject_id: 'ana', tags: ['team'] })
  ).body.memory;
  const b = (await api.post('/v1/memories', { ...ws, content: 'The platform team deploys on Tuesdays' })).body.memory;
  await api.post(`/v1/memories/${a.id}/associate`, { ...ws, target_id: b.id, relationship: 'related_to' });
  const session = (await api.post('/v1/sessions', { ...ws })).body.session;
  await api.post(`/v1/sessions/${session.id}/memory`, { key: 'k', value: 'v' });
  const thread = (await api.post(`/v1/threads?workspace_id=${WS}`, { title: 't' })).body.thread;
  await api.post(`/v1/threads/${thread.thread_id}/messages?workspace_id=${WS}`, {
    messages: [{ role: 'user', content: 'hello' }],
  });
  const upload = await uploadDocument(
    server.url,
    { name: 'a.docx', bytes: await minimalDocx(['Office hours are nine to five.']) },
    { workspace_id: WS },
  );
  await server.drainTasks();
  const pages = await api.get(`/v1/documents/${upload.body.document.id}/pages?workspace_id=${WS}`);
  const skill = (
    await api.post('/v1/skills', { ...ws, manifest: '---\nname: sweep-skill\ndescription: A skill\n---\nDo it.\n' })
  ).body.skill;
  const mcp = (await api.post('/v1/mcp-servers', { ...ws, name: 'sweep-mcp', command: 'npx' })).body.mcp_server;
  const provider = (await api.post('/v1/data-providers', { ...ws, name: 'sweep-dp', provider_type: 'local' })).body
    .data_provider;
  const app = (await api.post('/v1/applications', { name: 'sweep-app' })).body;
  Object.assign(real, {
    memory_id: a.id,
    session_id: session.id,
    thread_id: thread.thread_id,
    workspace_id: WS,
    entity_id: 'ana',
    document_id: upload.body.document.id,
    job_id: upload.body.job.id,
    page_id: pages.body.pages?.[0]?.id ?? 'missing',
    skill_id: skill.id,
    server_id: mcp.id,
    provider_id: provider.id,
    app_id: app.id,
    community_id: '0',
    '*': 'SKILL.md',
  });
  expect(Object.values(real).every((v) => typeof v === 'string' && v !== 'missing')).toBe(true);
});
afterAll(() => server.stop());

interface Probe {
  label: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

async function send(method: string, probe: Probe): Promise<Answer> {
  // The bytes and headers as the probe has them (no JSON content type added); a JSON error body that does not parse
  // is read as its text, which problemWith() names.
  const answer = await wire.request(method, probe.path, { headers: probe.headers ?? {}, body: probe.body });
  return { status: answer.status, contentType: answer.headers.get('content-type') ?? '', body: answer.data ?? '' };
}

/** 5xx answers a route may give by design: a feature this server does not have, a model that is not configured. */
const DESIGNED_5XX = new Set(['not_implemented', 'provider_unavailable', 'not_ready', 'secrets_unavailable']);

/** What is wrong with an answer, if anything. */
function problemWith(answer: Answer): string | undefined {
  const error = answer.body as { statusCode?: unknown; code?: unknown; message?: unknown } | string;
  if (answer.status < 400) return undefined;
  if (!answer.contentType.includes('application/json') || typeof error !== 'object')
    return `${answer.status} without a JSON body: ${String(error).slice(0, 80)}`;
  if (error.statusCode !== answer.status || typeof error.code !== 'string' || typeof error.message !== 'string')
    return `${answer.status} with a malformed error body`;
  if (answer.status >= 500 && !DESIGNED_5XX.has(error.code))
    return `${answer.status} ${error.code}: ${String(error.message)}`;
  return undefined;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const deep = (levels: number, open: string, close: string, leaf = '1') =>
  open.repeat(levels) + leaf + close.repeat(levels);
const query = (path: string, params: Record<string, string>) =>
  `${path}${path.includes('?') ? '&' : '?'}${Object.entries(params)
    .map(([k, v]) => `${k}=${v}`)
    .join('&')}`;

/** Whole bodies that are hostile whatever the route: too deep, not UTF-8, not an object, not JSON, poisoned. */
const hostileBodies: Array<[string, string | Uint8Array]> = [
  ['object nested 5,000 levels', `{"metadata":${deep(5000, '{"a":', '}')}}`],
  ['array nested 100,000 levels', deep(100_000, '[', ']')],
  ['nested one level too deep', `{"metadata":${deep(64, '{"a":', '}')}}`],
  ['invalid UTF-8', Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['a BOM before the JSON', '\ufeff{}'],
  ['null', 'null'],
  ['an array', '[{}]'],
  ['a string', '"text"'],
  ['a number', '123'],
  ['truncated JSON', '{"a":'],
  ['prototype poisoning', '{"__proto__":{"admin":true}}'],
  ['constructor poisoning', '{"constructor":{"prototype":{"admin":true}}}'],
  ['a NUL in a key', '{"a\\u0000":1}'],
];

/** Media types no JSON route reads. */
const hostileMedia: Array<[string, Record<string, string>, string]> = [
  ['text/plain', { 'content-type': 'text/plain' }, '{"content":"x"}'],
  ['form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }, 'content=x&importance=0.5'],
  ['xml', { 'content-type': 'application/xml' }, '<memory><content>x</content></memory>'],
  ['ndjson', { 'content-type': 'application/x-ndjson' }, '{"type":"memory","data":{"content":"x"}}\n'],
  [
    'multipart',
    { 'content-type': 'multipart/form-data; boundary=b' },
    '--b\r\nContent-Disposition: form-data; name="content"\r\n\r\nx\r\n--b--\r\n',
  ],
  ['no content type', {}, '{"content":"x"}'],
  ['a made-up type', { 'content-type': 'application/vnd.whatever' }, '{}'],
];

/** Values for one field (raw JSON text): wrong types, numbers out of range, strings a database chokes on. */
const hostileValues: Array<[string, string]> = [
  ['2^63', '9223372036854775808'],
  ['-2^63-1', '-9223372036854775809'],
  ['1e308', '1e308'],
  ['-1e308', '-1e308'],
  ['-1', '-1'],
  ['1.5', '1.5'],
  ['"NaN"', '"NaN"'],
  ['"Infinity"', '"Infinity"'],
  ['""', '""'],
  ['a NUL', '"a\\u0000b"'],
  ['an unpaired surrogate', '"a\\ud800b"'],
  ['a long string', JSON.stringify('x'.repeat(200_000))],
  ['an array', '[1,"a",{}]'],
  ['an object', '{"a":{"b":[1]}}'],
  ['null', 'null'],
  ['true', 'true'],
];

/** Values for one query parameter, as they appear in the URL. */
const hostileQueryValues: Array<[string, string]> = [
  ['2^63', '9223372036854775808'],
  ['-2^63-1', '-9223372036854775809'],
  ['1e999', '1e999'],
  ['-1', '-1'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['empty', ''],
  ['NUL', 'a%00b'],
  ['broken percent-encoding', '%FF%E0%'],
  ['an encoded surrogate', '%ED%A0%80'],
  ['a long value', 'x'.repeat(8000)],
];

/** Values for a path parameter. */
const hostilePathValues: Array<[string, string]> = [
  ['NUL', 'a%00b'],
  ['broken percent-encoding', '%FF%E0%'],
  ['an encoded surrogate', '%ED%A0%80'],
  ['a long id', 'x'.repeat(5000)],
  ['dots', '..%2F..%2Fetc%2Fpasswd'],
];

/** Headers every route reads (the workspace and session a call is for, the key). */
const hostileHeaders: Array<[string, Record<string, string>]> = [
  ['a workspace id in Latin-1', { 'x-workspace-id': 'caf\u00e9\u00ff' }],
  ['a long workspace id', { 'x-workspace-id': 'w'.repeat(5000) }],
  ['a session id in Latin-1', { 'x-session-id': 'sess_\u00ff' }],
  ['a long session id', { 'x-session-id': 's'.repeat(5000) }],
  ['a key in Latin-1', { authorization: 'Bearer \u00ff\u00fe' }],
];

const takesBody = (route: Route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method);
const queryNames = (route: Route) => route.parameters.filter((p) => p.in === 'query').map((p) => p.name);
const pathNames = (route: Route) => [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** The probes of one route: whole bodies and media types, each path parameter, each query parameter, each body field. */
function probesOf(route: Route, ids: (name: string) => string): Probe[] {
  const path = fillPath(route, ids);
  const probes: Probe[] = [];
  const schema: Schema | undefined = route.bodies['application/json'];
  const sample = schema ? (sampleOf(schema) as Record<string, unknown>) : {};
  if (takesBody(route)) {
    for (const [label, body] of hostileBodies) probes.push({ label: `body: ${label}`, path, headers: JSON_TYPE, body });
    for (const [label, headers, body] of hostileMedia) probes.push({ label: `media: ${label}`, path, headers, body });
    const fields = Object.keys(schema?.properties ?? {});
    for (const field of fields) {
      for (const [label, value] of hostileValues) {
        const body = JSON.stringify({ ...sample, [field]: '__VALUE__' }).replace('"__VALUE__"', value);
        probes.push({ label: `field ${field}: ${label}`, path, headers: JSON_TYPE, body });
      }
    }
  }
  for (const name of queryNames(route)) {
    for (const [label, value] of hostileQueryValues) {
      probes.push({
        label: `query ${name}: ${label}`,
        path: query(path, { [name]: value }),
        ...(takesBody(route) && { headers: JSON_TYPE, body: JSON.stringify(sample) }),
      });
    }
  }
  for (const [label, headers] of hostileHeaders) probes.push({ label: `headers: ${label}`, path, headers });
  for (const name of pathNames(route)) {
    for (const [label, value] of hostilePathValues) {
      const hostilePath = route.path.replace(/\{([^}]+)\}/g, (_, other: string) =>
        other === name ? value : encodeURIComponent(ids(other)),
      );
      probes.push({ label: `path ${name}: ${label}`, path: hostilePath });
    }
  }
  return probes;
}

/** What a refusal must leave as it was: the workspace's memories (every field a write could touch) and its objects. */
async function snapshot(): Promise<string> {
  const memories = await api.get(`/v1/memories?workspace_id=${WS}&limit=100&status=active`);
  const lists = await Promise.all(
    ['/v1/sessions', '/v1/threads', '/v1/documents', '/v1/skills', '/v1/mcp-servers', '/v1/data-providers'].map(
      (path) => api.get(`${path}?workspace_id=${WS}`),
    ),
  );
  const workspace = await api.get(`/v1/workspaces/${WS}`);
  return JSON.stringify({
    memories: (memories.body.memories as Array<Record<string, unknown>>).map(
      ({ id, content, importance, tags, metadata, pinned, status, type }) => ({
        id,
        content,
        importance,
        tags,
        metadata,
        pinned,
        status,
        type,
      }),
    ),
    counts: lists.map(
      (list) =>
        (list.body as Record<string, unknown>).total_count ??
        Object.values(list.body as object).find(Array.isArray)?.length,
    ),
    workspace: workspace.body.workspace,
  });
}

async function sweep(routes: Route[], ids: (name: string) => string): Promise<{ sent: number; problems: string[] }> {
  const problems: string[] = [];
  let sent = 0;
  for (const route of routes) {
    const before = await snapshot();
    let accepted = false;
    for (const probe of probesOf(route, ids)) {
      const answer = await send(route.method, probe);
      sent++;
      if (answer.status < 400) accepted = true;
      const problem = problemWith(answer);
      if (problem) problems.push(`${routeName(route)} [${probe.label}] → ${problem}`);
    }
    // A route that refused everything it was sent changed nothing.
    if (!accepted && (await snapshot()) !== before)
      problems.push(`${routeName(route)}: refused every probe but changed the workspace`);
  }
  return { sent, problems };
}

/** Deletes would remove the seeded objects; the context environment would start a Python interpreter per probe. */
const sweptWithoutObjects = (route: Route) => route.method === 'DELETE' || route.path.startsWith('/v1/context/');

/**
 * Thousands of requests one after another: on a busy two-core machine the Postgres run needed more than the default
 * minute, and a sweep cut off by its timeout goes on writing while the next test takes its snapshots.
 */
const SWEEP_TIMEOUT_MS = 600_000;

describe('hostile input on every route', () => {
  it(
    'routes that act on objects that exist (all but deletes and the context environment): never a failure, refusals in JSON, a route that refused every probe changed nothing',
    async () => {
      const routes = (await listRoutes(api)).filter((r) => !sweptWithoutObjects(r));
      expect(routes.length).toBeGreaterThan(90);
      const { sent, problems } = await sweep(routes, (name) => real[name] ?? 'missing-id');
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(4_000);
      expect((await api.get('/health/ready')).status).toBe(200);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(
    'deletes and the context environment, on objects that do not exist (validation comes first, and nothing is deleted)',
    async () => {
      const routes = (await listRoutes(api)).filter(sweptWithoutObjects);
      expect(routes.length).toBeGreaterThan(20);
      const { sent, problems } = await sweep(routes, (name) => (name === '*' ? 'missing.md' : 'missing-id'));
      expect(problems).toEqual([]);
      expect(sent).toBeGreaterThan(500);
    },
    SWEEP_TIMEOUT_MS,
  );
});
