import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, client, startServer, type Client, type TestServer } from '../support/server.js';

type Json = Record<string, any>;

/** Facts, near-duplicates (links) and changed values (contradictions), in two workspaces. */
const WRITES: Array<[workspace: string, content: string]> = [
  ['batch-a', 'Jordan moved to Lisbon in March. Jordan works as a nurse at the city hospital. The commute is short.'],
  ['batch-a', 'The payment service times out under heavy load'],
  ['batch-a', 'The deadline for the Falcon report is May 3'],
  ['batch-b', 'Priya keeps bees on the roof. She sells the honey at the Saturday market. Her hives face south.'],
  ['batch-a', 'The payment service times out under load on Fridays'],
  ['batch-b', 'The team offsite is in Porto this year'],
  ['batch-a', 'The deadline for the Falcon report is June 10'],
  ['batch-b', 'The team offsite is in Porto next year'],
  ['batch-a', 'Gardening tips for tomatoes and peppers'],
  ['batch-b', 'Priya sells her honey at the Saturday market in town'],
  ['batch-a', 'The payment service never times out under heavy load'],
];

/** Everything enrichment derived in a workspace, by content (ids differ between servers): facts, links, contradictions. */
async function derived(
  api: Client,
  workspace: string,
): Promise<{ facts: string[]; links: string[]; contradictions: string[] }> {
  const memories = (await api.get(`/v1/memories?limit=100&workspace_id=${workspace}`)).body.memories as Json[];
  const content = new Map(memories.map((m) => [m.id as string, m.content as string]));
  const facts = memories
    .filter((m) => m.source_memory_id !== null)
    .map((m) => `${content.get(m.source_memory_id)} > ${m.content}`);
  const links: string[] = [];
  for (const m of memories) {
    const edges = (await api.get(`/v1/memories/${m.id}/associations?direction=outgoing&workspace_id=${workspace}`)).body
      .associations as Json[];
    for (const e of edges) links.push(`${m.content} -${e.relationship} ${e.strength}-> ${content.get(e.target_id)}`);
  }
  const contradictions = (
    (await api.get(`/v1/workspaces/${workspace}/contradictions?limit=100`)).body.contradictions as Json[]
  ).map(
    (c) => `${content.get(c.memory_a_id)} x ${content.get(c.memory_b_id)}: ${c.contradiction_type} ${c.confidence}`,
  );
  return { facts: facts.sort(), links: links.sort(), contradictions: contradictions.sort() };
}

describe('enrichment in batches', () => {
  const servers: TestServer[] = [];
  let one: Client;
  let batched: Client;
  let batchedServer: TestServer;
  const clock = new ManualClock();

  beforeAll(async () => {
    const [single, many] = await Promise.all([
      startServer({ clock, env: { MEMD_TASK_BATCH_SIZE: '1' } }),
      startServer({ clock, env: { MEMD_TASK_BATCH_SIZE: '64' } }),
    ]);
    servers.push(single, many);
    batchedServer = many;
    [one, batched] = [client(single.url), client(many.url)];
    for (const api of [one, batched])
      for (const ws of ['batch-a', 'batch-b']) await api.post('/v1/workspaces', { id: ws, name: ws });
    // The same writes, at the same instants, to both servers; enrichment waits until every write is in.
    for (const [workspace, content] of WRITES) {
      clock.advance(1_000);
      for (const api of [one, batched])
        expect((await api.post('/v1/memories', { workspace_id: workspace, content })).body.action).toBe('created');
    }
    await Promise.all([single.drainTasks(), many.drainTasks()]);
  });
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it('derives the same facts, links and contradictions as enriching one memory at a time', async () => {
    for (const workspace of ['batch-a', 'batch-b']) {
      const alone = await derived(one, workspace);
      expect(alone.facts.length, workspace).toBeGreaterThanOrEqual(3);
      expect(alone.links.filter((l) => !l.includes('-part_of ')).length, workspace).toBeGreaterThan(0);
      expect(await derived(batched, workspace)).toEqual(alone);
    }
    expect((await derived(one, 'batch-a')).contradictions.length).toBeGreaterThan(0);
  });

  it('repeats nothing when a batch runs again (as after a crash before its completion was recorded)', async () => {
    const before = await Promise.all(['batch-a', 'batch-b'].map((ws) => derived(batched, ws)));
    const memories = await Promise.all(
      ['batch-a', 'batch-b'].map(
        async (ws) => (await batched.get(`/v1/memories?limit=100&workspace_id=${ws}`)).body.memories as Json[],
      ),
    );
    await batchedServer.app.services.storage.tasks.enqueue(
      memories.flat().map((m) => ({
        kind: 'memory.enrich',
        workspaceId: m.workspace_id,
        payload: { memory_id: m.id, auto_classified: true },
        runAt: clock.now().toISOString(),
      })),
    );
    expect(await batchedServer.drainTasks()).toBeGreaterThan(WRITES.length);
    expect(await Promise.all(['batch-a', 'batch-b'].map((ws) => derived(batched, ws)))).toEqual(before);
  });
});
