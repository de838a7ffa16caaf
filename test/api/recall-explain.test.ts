import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemdClient } from '../../packages/client/src/index.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = new MemdClient({ baseUrl: server.url });
});
afterAll(() => server.stop());

let workspaces = 0;
const workspace = async (): Promise<MemdClient> => {
  const { workspace } = await memd.workspaces.create({ id: `explain-${++workspaces}`, name: 'explain' });
  return memd.withWorkspace(workspace.id);
};

describe('recall with explain: true', () => {
  it('says where each arm placed a result, its ranking features and boosts, and what was left out past the limit', async () => {
    const ws = await workspace();
    const { memory: best } = await ws.memories.create({ content: 'The staging database listens on port 5433.' });
    const { memory: second } = await ws.memories.create({
      content: 'The production database port is 5432, not the staging one.',
    });
    await ws.memories.create({ content: 'Office plants need water every Thursday.' });

    const plain = await ws.memories.recall({ query: 'staging database port', limit: 1 });
    expect(plain.explanation).toBeUndefined();
    expect(plain.memories[0]!.explanation).toBeUndefined();

    const explained = await ws.memories.recall({ query: 'staging database port', limit: 1, explain: true });
    expect(explained.memories.map((m) => m.id)).toEqual([best.id]);
    const why = explained.memories[0]!.explanation!;
    expect(why.found_by).toBe('search');
    expect(why.arm_ranks.keyword).toBe(1);
    expect(why.arm_ranks.vector).toBeGreaterThanOrEqual(1);
    expect(why.features!.keyword).toBe(1); // the best keyword match of the query, holding every query word
    expect(why.features!.coverage).toBe(1);
    expect(why.boosts).toMatchObject({ scope: 1.2, backlink: 1 });

    const { explanation } = explained;
    expect(explanation!.arms).toEqual(expect.arrayContaining(['vector', 'keyword']));
    expect(explanation!.relevance_floor).toBe(0.3);
    expect(explanation!.candidates).toBeGreaterThanOrEqual(2);
    const pastLimit = explanation!.left_out.find((c) => c.id === second.id);
    expect(pastLimit).toMatchObject({ reason: 'past_limit', content: second.content });
    expect(pastLimit!.arm_ranks.keyword).toBe(2);
    expect(pastLimit!.boosted_score).toBeLessThanOrEqual(explained.memories[0]!.boosted_score);
  });

  it('names candidates under the relevance floor, and memories found by expansion over an association', async () => {
    const ws = await workspace();
    const { memory: anchor } = await ws.memories.create({ content: 'Kestrel is the codename of the billing rewrite.' });
    const { memory: linked } = await ws.memories.create({ content: 'Invoices move to the new ledger in March.' });
    await ws.associations.create(anchor.id, { target_id: linked.id, relationship: 'references', strength: 0.9 });
    const { memory: weak } = await ws.memories.create({
      content: 'Kestrel falcons hover over the parking lot on windy mornings, people say.',
    });

    const result = await ws.memories.recall({
      query: 'Kestrel billing rewrite codename',
      tolerance: 'strict',
      explain: true,
    });
    const byId = new Map(result.memories.map((m) => [m.id, m]));
    expect(byId.get(anchor.id)!.explanation!.found_by).toBe('search');
    const expanded = byId.get(linked.id);
    expect(expanded?.explanation).toMatchObject({ found_by: 'association', features: null, boosts: null });

    const under = result.explanation!.left_out.find((c) => c.id === weak.id);
    expect(under).toMatchObject({ reason: 'below_floor', boosted_score: 0 });
    expect(under!.relevance_score).toBeLessThan(result.explanation!.relevance_floor);
    expect(Object.keys(under!.arm_ranks).length).toBeGreaterThan(0);
  });

  it('is refused (422, naming the field) when it is not a boolean', async () => {
    // A body the client's types refuse, so it goes untyped.
    const answer = await memd.request('POST', '/v1/memories/recall', { json: { query: 'anything', explain: 'yes' } });
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.data)).toContain('explain');
  });
});
