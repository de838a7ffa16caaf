import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_SWEEP_INTERVAL_MS } from '../../src/core/sessions/expiry.js';
import { providerFor } from '../providers/llm/setup.js';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';

/**
 * The context environment through HTTP: one server (with a scripted language model) for the whole
 * file. Tests share a session where their variables cannot meet (each new session starts an
 * interpreter), and take their own where they count what is in it.
 */
const ADMIN = 'context-admin-key';
const clock = new ManualClock();
let fake: FakeLlmServer;
let server: TestServer;
let api: Client;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startServer({
    clock,
    env: { MEMD_ADMIN_KEY: ADMIN, MEMD_SANDBOX_SPARE: 'start' },
    llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }),
  });
  api = client(server.url, { authorization: `Bearer ${ADMIN}` });
  const seed = [
    { workspace_id: 'ctx-load-a', content: 'The launch moved to March 3.', type: 'episodic', tags: ['project'] },
    { workspace_id: 'ctx-load-a', content: 'Launch checklist: steps to release the app.', type: 'procedural' },
    { workspace_id: 'ctx-load-a', content: 'Lunch is served at noon.', type: 'semantic' },
    { workspace_id: 'ctx-load-b', content: 'The launch moved to April 9.', type: 'episodic', tags: ['project'] },
    { workspace_id: 'ctx-load-b', content: 'Launch checklist of the other team.', type: 'procedural' },
  ];
  for (const id of ['ctx-load-a', 'ctx-load-b'])
    expect((await api.post('/v1/workspaces', { id, name: id })).status).toBe(201);
  for (const memory of seed) expect((await api.post('/v1/memories', memory)).status).toBe(201);
});
afterAll(async () => {
  await server.stop();
  await fake.close();
});

interface SandboxSession {
  id: string;
  /** The X-Session-ID header for this session. */
  h: Record<string, string>;
}

async function newSession(
  workspaceId = 'ctx-main',
  options: { ttl_seconds?: number; session_id?: string } = {},
): Promise<SandboxSession> {
  const created = await api.post('/v1/sessions', { workspace_id: workspaceId, ttl_seconds: 86_400, ...options });
  expect(created.status).toBe(201);
  const id = created.body.session.id as string;
  return { id, h: { 'x-session-id': id } };
}

/** One session per workspace for the tests that share one, created on first use. */
const sharedSessions = new Map<string, Promise<SandboxSession>>();
function shared(workspaceId: string): Promise<SandboxSession> {
  if (!sharedSessions.has(workspaceId)) sharedSessions.set(workspaceId, newSession(workspaceId));
  return sharedSessions.get(workspaceId)!;
}

const run = (s: SandboxSession, code: string, extra: Record<string, unknown> = {}) =>
  api.post('/v1/context/execute', { code, ...extra }, s.h);
const resultOf = async (s: SandboxSession, code: string) => (await run(s, code)).body.result as string | null;
const errorOf = async (s: SandboxSession, code: string) => (await run(s, code)).body.error as string | null;
const status = async (s: SandboxSession) => (await api.get('/v1/context/status', s.h)).body;

const python = (code: string) => `Here is the next step:\n\`\`\`python\n${code}\n\`\`\``;
const isCodeWriting = (req: RecordedRequest) =>
  req.messages[0]?.content.startsWith('You reach a goal by writing Python code') ?? false;
const isEvaluation = (req: RecordedRequest) =>
  req.messages[0]?.content.startsWith('You judge whether a goal has been reached') ?? false;

describe('execute', () => {
  it('keeps state between calls and returns output, result and the variables it changed', async () => {
    const s = await shared('ctx-main');
    expect((await run(s, "x = 2\nprint('hello')")).body).toEqual({
      output: 'hello\n',
      result: null,
      error: null,
      variables_changed: ['x'],
    });
    expect((await run(s, 'y = x * 21\ny')).body).toEqual({
      output: '',
      result: '42',
      error: null,
      variables_changed: ['y'],
    });
    expect(await resultOf(s, "{'a': [1, 2], 'b': None}")).toBe('{"a": [1, 2], "b": null}');
    expect(await resultOf(s, "'plain text'")).toBe('plain text');
    expect((await run(s, "z = 'unused'", { result_var: 'x' })).body).toMatchObject({
      result: '2',
      variables_changed: ['z'],
    });
    expect((await run(s, 'x + 1', { return_result: false })).body.result).toBeNull();

    const long = (await run(s, "'a' * 5000", { max_return_chars: 100 })).body.result as string;
    expect(long.length).toBeLessThanOrEqual(100);
    expect(long).toMatch(/^a+\n\.\.\. \[truncated: 5000 characters in all\]$/);
  });

  it('answers a Python exception with a 200 whose error holds the traceback, and the state survives', async () => {
    const s = await shared('ctx-main');
    await run(s, 'kept = 1');
    const raised = await run(s, "def check(value):\n    raise ValueError(f'bad value: {value}')\n\ncheck(7)");
    expect(raised.status).toBe(200);
    expect(raised.body.result).toBeNull();
    expect(raised.body.error).toMatch(/^Traceback \(most recent call last\):\n/);
    expect(raised.body.error).toMatch(/File "<cell \d+>", line 2, in check\n/);
    expect(raised.body.error).toMatch(/ValueError: bad value: 7$/);
    expect(await errorOf(s, 'def broken(:')).toMatch(/SyntaxError/);
    expect(await errorOf(s, 'undefined_name')).toMatch(/NameError: name 'undefined_name' is not defined/);
    expect((await run(s, "print('before')\nkept = kept + 1\n1 / 0")).body).toMatchObject({
      output: 'before\n',
      variables_changed: ['kept'],
    });
    expect(await resultOf(s, 'kept')).toBe('2');
  });
});

describe('inject, inspect and status', () => {
  it('injects JSON values, inspects one variable or all, and reports status with counters', async () => {
    const s = await newSession();
    expect(await status(s)).toEqual({
      exists: false,
      active: false,
      execution_count: 0,
      variable_count: 0,
      variables: [],
      total_size_bytes: 0,
      memory_limit_bytes: 268_435_456,
      metadata: null,
    });

    const injected = await api.post(
      '/v1/context/inject',
      { key: 'config', value: { threshold: 0.5, names: ['a', 'b'] } },
      s.h,
    );
    expect(injected.body).toEqual({
      variable: 'config',
      key: 'config',
      type: 'dict',
      preview: "{'threshold': 0.5, 'names': ['a', 'b']}",
    });
    expect(
      (await api.post('/v1/context/inject', { key: 'rows', value: '[1, 2, 3]', parse_json: true }, s.h)).body,
    ).toMatchObject({ type: 'list', preview: '[1, 2, 3]' });
    expect((await api.post('/v1/context/inject', { key: 'raw', value: '[1, 2, 3]' }, s.h)).body).toMatchObject({
      type: 'str',
    });
    expect(await resultOf(s, "sum(rows) + config['threshold']")).toBe('6.5');
    await run(s, "text = 'x' * 1000");

    const one = (await api.post('/v1/context/inspect?variable=rows', {}, s.h)).body;
    expect(one).toEqual({ variable: 'rows', type: 'list', preview: '[1, 2, 3]', size_bytes: expect.any(Number) });
    expect(one.size_bytes).toBeGreaterThan(0);
    // The client library's form: the same fields in the body.
    const short = (await api.post('/v1/context/inspect', { variable: 'text', preview_chars: 20 }, s.h)).body;
    expect(short).toMatchObject({ variable: 'text', type: 'str' });
    expect(short.preview.length).toBeLessThanOrEqual(20);
    expect(short.size_bytes).toBeGreaterThan(1000);
    expect((await api.post('/v1/context/inspect?variable=nothing_here', {}, s.h)).status).toBe(404);

    const overview = (await api.post('/v1/context/inspect', {}, s.h)).body;
    expect(overview.variable_count).toBe(4);
    expect(overview.variables).toEqual({
      config: 'dict, 2 keys',
      rows: 'list, 3 items',
      raw: 'str, 9 chars',
      text: 'str, 1000 chars',
    });
    expect(overview.total_size_bytes).toBeGreaterThan(1000);

    const after = await status(s);
    expect(after).toMatchObject({
      exists: true,
      active: true,
      execution_count: 2,
      variable_count: 4,
      variables: ['config', 'rows', 'raw', 'text'],
      total_size_bytes: overview.total_size_bytes,
    });
    expect(after.metadata).toEqual({
      created_at: expect.any(String),
      exec_count: 2,
      total_operations: 9,
      last_exec_at: expect.any(String),
    });
    expect(Date.parse(after.metadata.last_exec_at)).toBeGreaterThanOrEqual(Date.parse(after.metadata.created_at));
  });
});

describe('load and recall()', () => {
  it("binds only the session workspace's memories, as dicts without embeddings", async () => {
    const s = await shared('ctx-load-a');
    const loaded = await api.post('/v1/context/load', { var: 'mems', query: 'launch moved' }, s.h);
    expect(loaded.status).toBe(200);
    expect(loaded.body).toEqual({ count: 3, variable: 'mems', var: 'mems', query: 'launch moved', total_available: 3 });
    expect(JSON.parse((await resultOf(s, "sorted({m['workspace_id'] for m in mems})"))!)).toEqual(['ctx-load-a']);
    expect(JSON.parse((await resultOf(s, "sorted(m['content'] for m in mems)"))!)).toEqual([
      'Launch checklist: steps to release the app.',
      'Lunch is served at noon.',
      'The launch moved to March 3.',
    ]);
    expect(await resultOf(s, "mems[0]['content']")).toBe('The launch moved to March 3.');
    expect(await resultOf(s, "any('embedding' in m for m in mems)")).toBe('false');
    expect(await resultOf(s, "0 < mems[0]['relevance_score'] <= 1, mems[0]['tags']")).toBe('[true, ["project"]]');

    // Python's recall() searches the same workspace, and only it.
    expect(JSON.parse((await resultOf(s, "sorted({m['workspace_id'] for m in recall('launch', 10)})"))!)).toEqual([
      'ctx-load-a',
    ]);
    expect(await resultOf(s, "len(recall('launch moved', limit=1))")).toBe('1');
  });

  it('applies limit, types, tags and min_relevance, and adds embeddings only when asked', async () => {
    const s = await shared('ctx-load-a');
    const load = async (body: Record<string, unknown>) =>
      (await api.post('/v1/context/load', { var: 'found', query: 'launch', ...body }, s.h)).body;
    expect(await load({ limit: 1 })).toMatchObject({ count: 1, total_available: 3 });
    expect(await load({ types: ['procedural'] })).toMatchObject({ count: 1 });
    expect(await resultOf(s, "found[0]['content']")).toBe('Launch checklist: steps to release the app.');
    expect(await load({ tags: ['project'] })).toMatchObject({ count: 1 });
    expect(await resultOf(s, "found[0]['content']")).toBe('The launch moved to March 3.');
    expect(await load({ query: 'The launch moved to March 3.', min_relevance: 0.99 })).toMatchObject({
      count: 1,
      total_available: 1,
    });
    expect(await load({ limit: 2, include_embeddings: true })).toMatchObject({ count: 2 });
    expect(await resultOf(s, "[len(m['embedding']) for m in found]")).toBe('[256, 256]');
  });
});

describe('query', () => {
  it("sends the prompt with the variables' contents to the model and stores its answer", async () => {
    const s = await shared('ctx-main');
    await run(s, "notes = ['The launch moved to March 3', 'Budget: 40k']");
    fake.script('The launch is on March 3.');
    const before = fake.requests.length;
    const answered = await api.post(
      '/v1/context/query',
      { prompt: 'When is the launch?', variables: ['notes'], result_var: 'answer' },
      s.h,
    );
    expect(answered.body).toEqual({
      response: 'The launch is on March 3.',
      variables_used: ['notes'],
      variables_included: ['notes'],
      tokens_used: expect.any(Number),
      result_var: 'answer',
    });
    expect(fake.requests).toHaveLength(before + 1);
    const sent = fake.requests.at(-1)!.messages;
    expect(sent[0]).toMatchObject({ role: 'system', content: expect.stringContaining('Python analysis session') });
    expect(sent.at(-1)).toEqual({
      role: 'user',
      content: 'When is the launch?\n\n### notes\n["The launch moved to March 3", "Budget: 40k"]',
    });
    expect(await resultOf(s, 'answer')).toBe('The launch is on March 3.');
  });

  it('fails clearly: an unknown variable is a 404 without a model call, a failing model a 502 that changes nothing', async () => {
    const s = await shared('ctx-main');
    await run(s, "answer = 'earlier'");
    const before = fake.requests.length;
    const unknown = await api.post('/v1/context/query', { prompt: 'x', variables: ['nowhere'] }, s.h);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/variable 'nowhere'/);
    expect(fake.requests).toHaveLength(before);

    fake.script({ status: 500, message: 'the model crashed' });
    const failed = await api.post('/v1/context/query', { prompt: 'Summarise', result_var: 'answer' }, s.h);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ code: 'provider_error', message: expect.stringMatching(/HTTP 500/) });
    expect(await resultOf(s, 'answer')).toBe('earlier');
  });
});

describe('rlm', () => {
  it('loops: the model writes code, the sandbox runs it, the model evaluates, until ACHIEVED (verbose trace)', async () => {
    const s = await shared('ctx-main');
    const first = 'numbers = [3, 1, 2]\nprint(sorted(numbers))';
    const second = "total = sum(numbers)\nprint('total:', total)";
    fake.script(python(first), 'CONTINUE\nThe total is still missing.', python(second), 'ACHIEVED\nThe total is 6.');
    const before = fake.requests.length;
    const result = await api.post(
      '/v1/context/rlm',
      { goal: 'Add up the numbers 3, 1 and 2', detail_level: 'verbose', result_var: 'outcome' },
      s.h,
    );
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      result: 'total: 6\n',
      iterations: 2,
      goal_achieved: true,
      trace: [
        {
          iteration: 1,
          generated_code: first,
          exec_output: '[1, 2, 3]',
          variables_changed: ['numbers'],
          evaluation: 'CONTINUE\nThe total is still missing.',
          action: 'continue',
        },
        {
          iteration: 2,
          generated_code: second,
          exec_output: 'total: 6',
          variables_changed: ['total'],
          evaluation: 'ACHIEVED\nThe total is 6.',
          action: 'achieved',
        },
      ],
    });
    const calls = fake.requests.slice(before);
    expect(calls.map((req) => (isCodeWriting(req) ? 'code' : isEvaluation(req) ? 'evaluate' : 'other'))).toEqual([
      'code',
      'evaluate',
      'code',
      'evaluate',
    ]);
    expect(calls[0]!.messages.at(-1)!.content).toMatch(
      /^Goal: Add up the numbers 3, 1 and 2\n\nWrite the code for the first step\.$/,
    );
    expect(calls[2]!.messages.at(-1)!.content).toContain('Step 1 output:\n[1, 2, 3]');
    expect(await resultOf(s, 'outcome, total')).toBe('["total: 6\\n", 6]');
  });

  it('finishes when the code sets _goal_achieved, with memories from memory_query (brief trace)', async () => {
    const s = await shared('ctx-load-a');
    fake.script(
      python(
        "_final_result = sorted(m['content'] for m in memories if 'moved' in m['content'])\n_goal_achieved = True",
      ),
    );
    const before = fake.requests.length;
    const result = await api.post(
      '/v1/context/rlm',
      { goal: 'When did the launch move to?', memory_query: 'launch', memory_limit: 10, detail_level: 'brief' },
      s.h,
    );
    expect(result.body).toEqual({
      result: '["The launch moved to March 3."]',
      iterations: 1,
      goal_achieved: true,
      trace: [{ iteration: 1, action: 'achieved' }],
    });
    expect(fake.requests).toHaveLength(before + 1); // no evaluation call
    expect(fake.requests.at(-1)!.messages.at(-1)!.content).toContain('### memories\n[{');
    expect(fake.requests.at(-1)!.messages.at(-1)!.content).not.toContain('April 9');
  });

  it('stops at max_iterations; minimal and standard traces', async () => {
    const s = await shared('ctx-main');
    fake.script(python("print('working')"), 'CONTINUE\nNot yet.');
    const minimal = await api.post(
      '/v1/context/rlm',
      { goal: 'Never quite done', max_iterations: 1, detail_level: 'minimal' },
      s.h,
    );
    expect(minimal.body).toEqual({
      result: 'working\n',
      iterations: 1,
      goal_achieved: false,
      trace: [{ iteration: 1, action: 'continue' }],
    });

    fake.script(python("print('x' * 3000)"), 'FAILED\nIt cannot be done.');
    const standard = (await api.post('/v1/context/rlm', { goal: 'Print a lot' }, s.h)).body;
    expect(standard).toMatchObject({
      iterations: 1,
      goal_achieved: false,
      trace: [{ iteration: 1, action: 'failed', evaluation: 'FAILED\nIt cannot be done.' }],
    });
    expect(standard.trace[0].exec_output).toMatch(/^x{2000}\.\.\. \[3000 characters in all\]$/);
  });

  it('a failing model is a 502; bad options are a 422 before any model call', async () => {
    const s = await shared('ctx-main');
    fake.script(python('step = 1'), { status: 503, message: 'overloaded' });
    expect((await api.post('/v1/context/rlm', { goal: 'Anything' }, s.h)).status).toBe(502);
    const before = fake.requests.length;
    for (const bad of [
      { detail_level: 'everything' },
      { max_iterations: 0 },
      { max_iterations: 51 },
      { memory_limit: 501 },
      { goal: '  ' },
    ]) {
      expect((await api.post('/v1/context/rlm', { goal: 'x', ...bad }, s.h)).status, JSON.stringify(bad)).toBe(422);
    }
    expect(fake.requests).toHaveLength(before);
  });
});

describe('bad input', () => {
  it('is a 422 and changes nothing', async () => {
    const s = await shared('ctx-main');
    await run(s, "kept = 'as it was'");
    const before = await status(s);
    const attempts: [string, Record<string, unknown>][] = [
      ['/v1/context/execute', {}],
      ['/v1/context/execute', { code: 42 }],
      ['/v1/context/execute', { code: 'kept = 1', max_return_chars: 99 }],
      ['/v1/context/execute', { code: 'kept = 1', max_return_chars: 100_001 }],
      ['/v1/context/execute', { code: 'kept = 1', result_var: '1abc' }],
      ['/v1/context/execute', { code: 'kept = 1', unknown_field: true }],
      ['/v1/context/load', { var: 'kept', query: 'x', limit: 0 }],
      ['/v1/context/load', { var: 'kept', query: 'x', limit: 501 }],
      ['/v1/context/load', { var: 'kept', query: 'x', min_relevance: 1.5 }],
      ['/v1/context/load', { var: 'kept', query: 'x', types: ['nonsense'] }],
      ['/v1/context/load', { query: 'x' }],
      ['/v1/context/load', { var: 'for', query: 'x' }],
      ['/v1/context/inject', { key: 'not a name', value: 1 }],
      ['/v1/context/inject', { key: '__builtins__', value: 1 }],
      ['/v1/context/inject', { key: 'kept', value: '{broken', parse_json: true }],
      ['/v1/context/inject', { key: 'kept', value: 5, parse_json: true }],
      ['/v1/context/inject', { value: 1 }],
      ['/v1/context/query', { prompt: 'x', max_context_chars: 99 }],
      ['/v1/context/query', { prompt: 'x', max_context_chars: 500_001 }],
      ['/v1/context/query', { prompt: 'x', variables: 'kept' }],
    ];
    for (const [path, body] of attempts) {
      const response = await api.post(path, body, s.h);
      expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(422);
      expect(response.body.code).toBe('validation_error');
    }
    expect((await api.post('/v1/context/inspect?preview_chars=0', {}, s.h)).status).toBe(422);
    const after = await status(s);
    expect(after.variables).toEqual(before.variables);
    expect(after.metadata.exec_count).toBe(before.metadata.exec_count);
    expect(await resultOf(s, 'kept')).toBe('as it was');
  });
});

describe('X-Session-ID', () => {
  const routes: [string, string][] = [
    ['POST', '/v1/context/execute'],
    ['POST', '/v1/context/inspect'],
    ['POST', '/v1/context/load'],
    ['POST', '/v1/context/inject'],
    ['POST', '/v1/context/query'],
    ['POST', '/v1/context/rlm'],
    ['GET', '/v1/context/status'],
    ['POST', '/v1/context/checkpoint'],
    ['DELETE', '/v1/context/cleanup'],
  ];
  const bodies: Record<string, unknown> = {
    '/v1/context/execute': { code: '1' },
    '/v1/context/load': { var: 'v', query: 'q' },
    '/v1/context/inject': { key: 'k', value: 1 },
    '/v1/context/query': { prompt: 'p' },
    '/v1/context/rlm': { goal: 'g' },
  };
  const call = (method: string, path: string, headers: Record<string, string>) =>
    api.raw(method, path, method === 'POST' ? (bodies[path] ?? {}) : undefined, headers);

  it('is required on every route (400), must name a known session (404) that has not expired (410)', async () => {
    const expiring = await newSession('ctx-main', { ttl_seconds: 60 });
    await run(expiring, 'x = 1');
    clock.advance(61_000);
    for (const [method, path] of routes) {
      const missing = await call(method, path, {});
      expect(missing.status, `${method} ${path}`).toBe(400);
      expect(missing.body.message).toMatch(/X-Session-ID/);
      expect((await call(method, path, { 'x-session-id': 'sess_unknown' })).status, `${method} ${path}`).toBe(404);
      expect((await call(method, path, expiring.h)).status, `${method} ${path}`).toBe(410);
    }
  });
});

describe('isolation', () => {
  it('sessions do not share variables, even in one workspace', async () => {
    const alice = await shared('ctx-main');
    const bob = await newSession();
    await run(alice, "secret = 'alice only'");
    expect(await errorOf(bob, 'secret')).toMatch(/NameError/);
    expect((await status(bob)).variables).toEqual([]);
    expect(await resultOf(alice, 'secret')).toBe('alice only');
  });

  it("a key for one workspace cannot use another workspace's session: 404 as for no session, naming no workspace, and nothing changes there", async () => {
    const theirs = await newSession('ctx-team-b');
    await run(theirs, "plan = 'B only'");
    const issued = await api.post('/v1/api-keys', { name: 'agent-a', workspaces: ['ctx-team-a'] });
    const keyA = client(server.url, { authorization: `Bearer ${issued.body.api_key.key}` });
    const mine = (await keyA.post('/v1/sessions', { workspace_id: 'ctx-team-a' })).body.session.id as string;

    const refused = await keyA.post('/v1/context/execute', { code: "plan = 'overwritten'" }, theirs.h);
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(`session '${theirs.id}' was not found`);
    expect((await keyA.get('/v1/context/status', theirs.h)).status).toBe(404);
    expect((await keyA.delete('/v1/context/cleanup', theirs.h)).status).toBe(404);
    // A route the workspace scopes, through that session: the same answer, not a 403 naming its workspace.
    const recall = await keyA.post('/v1/memories/recall', { query: 'plan' }, theirs.h);
    expect(recall.status).toBe(404);
    expect(JSON.stringify(recall.body)).not.toContain('ctx-team-b');
    expect((await keyA.post('/v1/context/execute', { code: '1 + 1' }, { 'x-session-id': mine })).body.result).toBe('2');
    expect(await resultOf(theirs, 'plan')).toBe('B only');
  });
});

describe('lifecycle', () => {
  it('cleanup removes the sandbox and its checkpoint', async () => {
    const s = await newSession();
    await run(s, 'x = 1');
    expect((await api.post('/v1/context/checkpoint', undefined, s.h)).status).toBe(204);
    expect((await api.delete('/v1/context/cleanup', s.h)).status).toBe(204);
    expect(await status(s)).toMatchObject({ exists: false, variables: [], metadata: null });
    expect(await errorOf(s, 'x')).toMatch(/NameError/);
    expect((await status(s)).metadata).toMatchObject({ exec_count: 1 });
  });

  /** A session re-created under the same id must start with nothing of the one that ended. */
  async function expectFreshUnder(id: string, workspaceId: string): Promise<void> {
    const again = await newSession(workspaceId, { session_id: id });
    // A sandbox left alive here, or a checkpoint, would make it exist (with `x`).
    expect(await status(again)).toEqual({
      exists: false,
      active: false,
      execution_count: 0,
      variable_count: 0,
      variables: [],
      total_size_bytes: 0,
      memory_limit_bytes: 268_435_456,
      metadata: null,
    });
  }

  it('a deleted session takes its live sandbox and its checkpoint with it', async () => {
    const s = await newSession();
    await run(s, 'x = 1');
    await api.post('/v1/context/checkpoint', undefined, s.h);
    expect((await api.delete(`/v1/sessions/${s.id}`)).status).toBe(204);
    expect((await run(s, 'x')).status).toBe(404);
    await expectFreshUnder(s.id, 'ctx-main');
  });

  it('an expired session, once swept, takes its sandbox with it', async () => {
    const s = await newSession('ctx-main', { ttl_seconds: 60 });
    await run(s, 'x = 1');
    await api.post('/v1/context/checkpoint', undefined, s.h);
    clock.advance(SESSION_SWEEP_INTERVAL_MS + 1_000);
    await server.drainTasks();
    expect((await api.get(`/v1/sessions/${s.id}`)).status).toBe(404);
    await expectFreshUnder(s.id, 'ctx-main');
  });

  it('a deleted workspace takes the sandboxes of its sessions with it', async () => {
    expect((await api.post('/v1/workspaces', { id: 'ctx-doomed', name: 'doomed' })).status).toBe(201);
    const s = await newSession('ctx-doomed');
    await run(s, 'x = 1');
    await api.post('/v1/context/checkpoint', undefined, s.h);
    expect((await api.delete('/v1/workspaces/ctx-doomed')).status).toBe(204);
    await expectFreshUnder(s.id, 'ctx-main');
  });
});
