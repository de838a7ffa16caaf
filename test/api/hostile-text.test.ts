import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url);
});
afterAll(() => server.stop());

/**
 * Texts at the 200,000-character limit made of tiny pieces. Each used to cost minutes of blocked event loop
 * (ICU segmentation copies the whole text into every segment), and enriching them ran the process out of a 4 GB
 * heap; a query of one 10,000-character "word" or of 3,000 capitalised words took 10 s per recall.
 */
const LIMIT = 200_000;
const contents = {
  lines: 'a\n'.repeat(LIMIT / 2),
  hyphens: 'x-'.repeat(LIMIT / 2),
  sentences: 'I like X. '.repeat(LIMIT / 10),
  capitals: 'Ab '.repeat(Math.floor(LIMIT / 3)),
  dots: 'a.'.repeat(LIMIT / 2),
  word: 'x'.repeat(LIMIT),
};

describe('the longest memories of the smallest pieces', () => {
  // Every text is enriched and recalled: 41 s alone on Postgres at load 8, near the default 60 s in a full run.
  it('are written, enriched, recalled and reflected on; the server stays up', { timeout: 180_000 }, async () => {
    const ids = new Map<string, string>();
    for (const [name, content] of Object.entries(contents)) {
      const created = await api.post('/v1/memories', { content, tags: [name] });
      expect(created.status, name).toBe(201);
      ids.set(name, created.body.memory.id);
    }
    await server.drainTasks();
    for (const query of ['a.'.repeat(5_000), 'Ab '.repeat(3_333), `"${'ab '.repeat(30)}"`, 'x-'.repeat(5_000)]) {
      const recalled = await api.post('/v1/memories/recall', { query, limit: 3 });
      expect(recalled.status).toBe(200);
      expect((await api.post('/v1/memories/reflect', { query })).status).toBeLessThan(500);
    }
    for (const [name, id] of ids)
      expect((await api.get(`/v1/memories/${id}`)).body.memory.content, name).toBe(
        contents[name as keyof typeof contents].trim(),
      );
    expect((await api.get('/health/ready')).status).toBe(200);
  });
});
