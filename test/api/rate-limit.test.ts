import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

const ADMIN = 'admin-secret-for-rate-tests';
const LIMIT = 5;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { MEMD_ADMIN_KEY: ADMIN, MEMD_RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});
afterAll(() => server.stop());

describe('MEMD_RATE_LIMIT_PER_MINUTE', () => {
  it('limits each API key on its own: 429 with retry_after beyond the limit, and the refused request does nothing', async () => {
    const admin = client(server.url, { authorization: `Bearer ${ADMIN}` });
    expect((await admin.post('/v1/workspaces', { id: 'limited', name: 'limited' })).status).toBe(201);
    const keyFor = async (name: string): Promise<Client> =>
      client(server.url, {
        authorization: `Bearer ${(await admin.post('/v1/api-keys', { name, workspaces: ['limited'] })).body.api_key.key}`,
      });
    const first = await keyFor('first');
    const second = await keyFor('second');

    for (let i = 0; i < LIMIT; i++)
      expect(
        (await first.post('/v1/memories', { content: `Note number ${i} about the limited workspace.` })).status,
      ).toBe(201);
    const refused = await first.post('/v1/memories', { content: 'One note too many.' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited', retry_after: expect.any(Number) });
    expect(refused.body.retry_after).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.retry_after);

    // Another key has its own budget, and sees that the refused write stored nothing.
    const listed = await second.get('/v1/memories?workspace_id=limited&limit=50');
    expect(listed.status).toBe(200);
    expect(listed.body.memories.map((m: { content: string }) => m.content)).not.toContain('One note too many.');
    expect(listed.body.memories).toHaveLength(LIMIT);
    // Health probes are not counted.
    for (let i = 0; i < LIMIT + 1; i++) expect((await client(server.url).get('/health')).status).toBe(200);
  });
});
