import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';
import { providerFor } from '../providers/llm/setup.js';

type Json = Record<string, any>;
const clock = new ManualClock();
let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer({ clock });
  api = client(server.url);
  await api.post('/v1/workspaces', { id: 'ent', name: 'entities' });
  await api.post('/v1/workspaces', { id: 'ent-other', name: 'other' });
});
afterAll(() => server.stop());

async function about(subject: string, content: string, extra: Json = {}, workspace = 'ent') {
  clock.advance(1_000);
  const created = await api.post('/v1/memories', { workspace_id: workspace, content, subject_id: subject, ...extra });
  expect(created.status).toBe(201);
  return created.body.memory as Json;
}

const derive = (entity: string, body: Json = {}) =>
  api.post(`/v1/entities/${entity}/derive`, { workspace_id: 'ent', ...body });
const keys = (insights: Json[]) => insights.map((i) => i.metadata.insight_key).sort();

describe('entities', () => {
  it('derives rule-based insights about a subject and updates them instead of adding copies', async () => {
    await about('ana', 'Ana prefers green tea');
    await about('ana', 'Ana likes hiking on weekends');
    await about('ana', 'Ana works as a nurse in Lisbon');
    await about('ana', 'Ana decided to learn Portuguese');
    await about('ana', 'Ana seems tired on Mondays', { observer_id: 'agent-2' });
    await about('bo', 'Bo prefers coffee');

    clock.advance(1_000);
    const first = await derive('ana');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      subject_id: 'ana',
      workspace_id: 'ent',
      insights_created: 5,
      insights_updated: 0,
      source_memory_count: 5,
    });
    expect(keys(first.body.insights)).toEqual(['entities', 'events', 'overview', 'preferences', 'profile']);
    const preferences = first.body.insights.find((i: Json) => i.metadata.insight_key === 'preferences');
    expect(preferences).toMatchObject({
      subtype: 'inference',
      subject_id: 'ana',
      observer_id: null,
      metadata: { derived_by: 'rules', rule_based: true, source_memory_count: 5 },
    });
    expect(preferences.content).toBe(
      'Rule-based aggregation (no language model) of 2 preference memories about ana: Ana prefers green tea; Ana likes hiking on weekends.',
    );
    expect(first.body.insights.find((i: Json) => i.metadata.insight_key === 'overview').content).toMatch(
      /^Rule-based overview \(no language model\): 5 memories about ana from 2026-03-01 to 2026-03-01/,
    );

    const unchanged = await derive('ana');
    expect(unchanged.body).toMatchObject({ insights_created: 0, insights_updated: 0 });
    expect(unchanged.body.insights.map((i: Json) => i.id).sort()).toEqual(
      first.body.insights.map((i: Json) => i.id).sort(),
    );

    await about('ana', 'Ana prefers window seats on trains');
    clock.advance(1_000);
    const updated = await derive('ana');
    expect(updated.body).toMatchObject({ insights_created: 0, insights_updated: 2, source_memory_count: 6 });
    expect(updated.body.insights.find((i: Json) => i.metadata.insight_key === 'preferences').content).toContain(
      'Ana prefers window seats on trains',
    );
    expect(
      (await api.get('/v1/memories?workspace_id=ent&subject_id=ana&subtype=inference&limit=100')).body.total_count,
    ).toBe(5);

    const forced = await derive('ana', { force: true });
    expect(forced.body).toMatchObject({ insights_created: 0, insights_updated: 0 });
  });

  it('keeps each observer’s perspective apart', async () => {
    const seen = await derive('ana', { observer_id: 'agent-2' });
    expect(seen.body).toMatchObject({ source_memory_count: 1, insights_created: 2 });
    expect(seen.body.insights.map((i: Json) => i.observer_id)).toEqual(['agent-2', 'agent-2']);
    const insights = await api.get('/v1/entities/ana/insights?workspace_id=ent&observer_id=agent-2');
    expect(insights.body).toMatchObject({ entity_id: 'ana', workspace_id: 'ent', total_count: 2 });
    const all = await api.get('/v1/entities/ana/insights?workspace_id=ent&limit=3');
    expect([all.body.insights.length, all.body.total_count]).toEqual([3, 7]);
  });

  it('serves a cached card until the memories about the entity change', async () => {
    const first = await api.get('/v1/entities/ana/card?workspace_id=ent');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      entity_id: 'ana',
      workspace_id: 'ent',
      cached: false,
      generated_at: clock.now().toISOString(),
    });
    expect(first.body.reflection).toMatch(/^Rule-based reflection \(no language model\) from 6 memories about ana/);
    expect(first.body.confidence).toBeCloseTo(0.66, 5);
    expect(keys(first.body.insights)).toEqual(['entities', 'events', 'overview', 'preferences', 'profile']);
    expect(first.body.source_memories).toHaveLength(6);

    clock.advance(1_000);
    const second = await api.get('/v1/entities/ana/card?workspace_id=ent');
    expect(second.body).toMatchObject({
      cached: true,
      generated_at: first.body.generated_at,
      reflection: first.body.reflection,
    });

    await about('ana', 'Ana adopted a cat named Miso');
    clock.advance(1_000);
    const refreshed = await api.get('/v1/entities/ana/card?workspace_id=ent');
    expect(refreshed.body).toMatchObject({ cached: false, generated_at: clock.now().toISOString() });
    expect(refreshed.body.source_memories.map((m: Json) => m.content)).toContain('Ana adopted a cat named Miso');
    clock.advance(1_000);
    expect((await api.get('/v1/entities/ana/card?workspace_id=ent&force_refresh=true')).body.cached).toBe(false);
  });

  it('knows no entity without memories, and keeps workspaces apart', async () => {
    expect((await derive('nobody')).status).toBe(404);
    expect((await api.get('/v1/entities/nobody/card?workspace_id=ent')).status).toBe(404);
    expect((await api.get('/v1/entities/nobody/insights?workspace_id=ent')).body).toMatchObject({
      insights: [],
      total_count: 0,
    });
    expect((await api.post('/v1/entities/ana/derive', { workspace_id: 'ent-other' })).status).toBe(404);
    expect((await api.get('/v1/entities/ana/insights?workspace_id=ent-other')).body.total_count).toBe(0);
    expect((await api.get('/v1/entities/ana/card?workspace_id=no-such-ws')).status).toBe(404);
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const before = (await api.get('/v1/memories?workspace_id=ent&subject_id=ana&limit=1')).body.total_count;
    for (const body of [{ force: 'yes' }, { observer_id: '' }, { extra: 1 }])
      expect((await derive('ana', body)).status, JSON.stringify(body)).toBe(422);
    for (const query of ['limit=0', 'limit=501', 'observer_id='])
      expect((await api.get(`/v1/entities/ana/insights?workspace_id=ent&${query}`)).status, query).toBe(422);
    expect((await api.get('/v1/entities/ana/card?workspace_id=ent&force_refresh=maybe')).status).toBe(422);
    expect((await api.get('/v1/memories?workspace_id=ent&subject_id=ana&limit=1')).body.total_count).toBe(before);
  });
});

describe('entities with a language model', () => {
  let fake: FakeLlmServer;
  let llmServer: TestServer;
  const ask = (marker: string) => (req: RecordedRequest) => req.messages[0]?.content.includes(marker) ?? false;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ respond: () => ({ status: 500 }) });
    llmServer = await startServer({ clock, llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }) });
  });
  afterAll(async () => {
    await llmServer.stop();
    await fake.close();
  });

  it('stores the model’s insights by key, updates them on re-derivation, and writes the card’s reflection', async () => {
    const llmApi = client(llmServer.url);
    for (const content of ['Cy runs every morning', 'Cy signed up for the Berlin marathon']) {
      clock.advance(1_000);
      await llmApi.post('/v1/memories', { content, subject_id: 'cy' });
    }
    const insight = (content: string) =>
      JSON.stringify({ insights: [{ key: 'Fitness Habits', content, importance: 0.8 }] });
    fake.script(insight('Cy is a committed runner.'));
    const first = await llmApi.post('/v1/entities/cy/derive', {});
    expect(first.body).toMatchObject({ insights_created: 1, insights_updated: 0 });
    expect(first.body.insights[0]).toMatchObject({
      content: 'Cy is a committed runner.',
      importance: 0.8,
      metadata: { insight_key: 'fitness_habits', derived_by: 'llm', rule_based: false },
    });

    fake.script((req) => {
      expect(ask('Existing insight keys')(req)).toBe(true);
      expect(req.messages[0]!.content).toContain('fitness_habits');
      return insight('Cy is a committed runner training for a marathon.');
    });
    const second = await llmApi.post('/v1/entities/cy/derive', { force: true });
    expect(second.body).toMatchObject({ insights_created: 0, insights_updated: 1 });
    expect(second.body.insights).toHaveLength(1);

    clock.advance(1_000);
    fake.script(
      JSON.stringify({ reflection: 'Cy is a disciplined runner preparing for the Berlin marathon.', confidence: 0.85 }),
    );
    const card = await llmApi.get('/v1/entities/cy/card');
    expect(card.body).toMatchObject({
      reflection: 'Cy is a disciplined runner preparing for the Berlin marathon.',
      confidence: 0.85,
      cached: false,
    });
  });
});
