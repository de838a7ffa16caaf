import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  MemdClient,
  MemdError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '../../packages/client/src/index.js';
import { ManualClock, startServer, type TestServer } from '../support/server.js';

/** The error a call rejects with (the test fails when it resolves). */
async function failure(call: Promise<unknown>): Promise<MemdError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected the call to fail, it answered ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(MemdError);
  return outcome.error as MemdError;
}

describe('typed errors from a real server', () => {
  let server: TestServer;
  let memd: MemdClient;
  const clock = new ManualClock();

  beforeAll(async () => {
    server = await startServer({ clock, env: { MEMD_DOCUMENT_MAX_BYTES: '1000' } });
    memd = new MemdClient({ baseUrl: server.url });
  });
  afterAll(() => server.stop());

  it('404: NotFoundError with the code and message of the error body', async () => {
    const error = await failure(memd.memories.get('mem_missing'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', details: [] });
    expect(error.message).toContain('mem_missing');
    expect(error.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'not_found' });
  });

  it('422: ValidationError (a BadRequestError) naming each invalid field, and nothing changed', async () => {
    const error = await failure(memd.memories.create({ content: '   ', importance: 2 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation_error');
    expect(error.details.map((d) => d.path).sort()).toEqual(['/body/content', '/body/importance']);
    expect((await memd.memories.list()).total_count).toBe(0);
  });

  it('400: BadRequestError (a context call without a session)', async () => {
    const error = await failure(memd.context.status());
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('409: ConflictError', async () => {
    await memd.workspaces.create({ id: 'twice', name: 'Twice' });
    expect(await failure(memd.workspaces.create({ id: 'twice', name: 'Twice' }))).toBeInstanceOf(ConflictError);
  });

  it('410: GoneError for an expired session', async () => {
    const { session } = await memd.sessions.start({ ttl_seconds: 60 });
    clock.advance(61_000);
    const error = await failure(memd.sessions.get(session.id));
    expect(error).toBeInstanceOf(GoneError);
    expect(error).toMatchObject({ status: 410, code: 'gone' });
  });

  it('413 and 415: PayloadTooLargeError and UnsupportedMediaTypeError from an upload', async () => {
    const tooLarge = await failure(memd.documents.upload(new Uint8Array(2000).fill(97), {}, { filename: 'big.txt' }));
    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect(tooLarge).toMatchObject({ status: 413, code: 'payload_too_large' });
    const unsupported = await failure(
      memd.documents.upload(
        new Uint8Array([1, 2, 3]),
        {},
        { filename: 'tool.exe', contentType: 'application/x-msdownload' },
      ),
    );
    expect(unsupported).toBeInstanceOf(UnsupportedMediaTypeError);
    expect(unsupported.status).toBe(415);
  });
});

describe('typed errors with auth on', () => {
  const adminKey = 'admin-secret-for-client-tests';
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { MEMD_ADMIN_KEY: adminKey } });
  });
  afterAll(() => server.stop());

  it('401: UnauthorizedError without a key or with a wrong one', async () => {
    for (const apiKey of [undefined, 'not-a-key']) {
      const error = await failure(new MemdClient({ baseUrl: server.url, ...(apiKey && { apiKey }) }).workspaces.list());
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    }
  });

  it('403: ForbiddenError for a key outside its workspace or below the admin', async () => {
    const admin = new MemdClient({ baseUrl: server.url, apiKey: adminKey });
    await admin.workspaces.create({ id: 'team-a', name: 'A' });
    await admin.workspaces.create({ id: 'team-b', name: 'B' });
    const { api_key } = await admin.apiKeys.create({ name: 'a', workspaces: ['team-a'] });
    const keyA = new MemdClient({ baseUrl: server.url, apiKey: api_key.key });
    expect((await keyA.memories.create({ content: 'allowed' })).memory.workspace_id).toBe('team-a');
    const outside = await failure(keyA.withWorkspace('team-b').memories.list());
    expect(outside).toBeInstanceOf(ForbiddenError);
    expect(outside).toMatchObject({ status: 403, code: 'forbidden' });
    expect(await failure(keyA.apiKeys.list())).toBeInstanceOf(ForbiddenError);
  });
});

describe('rate limiting', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ env: { MEMD_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => server.stop());

  it('429 beyond the limit: RateLimitedError with retryAfter, surfaced at once when the wait is longer than the client accepts', async () => {
    const memd = new MemdClient({ baseUrl: server.url, retry: { maxRetryAfterMs: 5_000 } });
    for (let i = 0; i < 3; i++) await memd.workspaces.list();
    const limited = await failure(memd.workspaces.list.withResponse());
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited).toMatchObject({ status: 429, code: 'rate_limited' });
    const retryAfter = (limited as RateLimitedError).retryAfter!;
    // The window is a minute; the server asks for the rest of it, more than the 5 s this client waits.
    expect(retryAfter).toBeGreaterThan(5);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});
