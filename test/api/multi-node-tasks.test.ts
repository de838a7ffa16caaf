import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer, type RecordedRequest } from '../support/fake-llm-server.js';
import { allMemories, factsPerMemory } from '../support/facts.js';
import { startNodes, type NodeGroup, type NodeProcess } from '../support/nodes.js';
import { freshSchema } from '../support/postgres.js';
import { postgresStorageEnv, type Client } from '../support/server.js';

/** Two sentences over 80 characters: each memory queues enrichment that derives exactly two facts. */
const content = (n: number) =>
  `Crash test memory number ${n} records a delivery to warehouse ${n % 17}. The parcel weighed ${n} grams and arrived on time.`;

/** The first step of a memory's enrichment asks the model to file it: one such request is one run of its task. */
const isRefinement = (request: RecordedRequest) => /You file memories/.test(request.messages[0]?.content ?? '');
const REFINED = JSON.stringify({
  type: 'episodic',
  subtype: null,
  abstract: 'A delivery was recorded.',
  overview: 'A delivery to a warehouse was recorded.',
});

/**
 * Three API nodes on one database, written to at once, one of them killed with SIGKILL in the middle of its
 * background tasks. Node C's language model never answers, so every task C takes is still running when it dies,
 * and C's share of the queue can only be finished by A and B once C's leases run out. Counting the model's
 * requests tells how often each task ran on the nodes that survived.
 */
describe('three nodes on one database, one killed with SIGKILL mid-task', () => {
  let fake: FakeLlmServer;
  let group: NodeGroup | undefined;
  afterAll(async () => {
    await fake?.close();
    await group?.stop();
  });

  it('loses no acknowledged write, and runs every queued task to its end exactly once', async () => {
    fake = await startFakeOpenAI({
      respond: (request) =>
        request.headers.authorization === 'Bearer node-c' ? { hang: true } : isRefinement(request) ? REFINED : '{}',
    });
    group = await startNodes(
      ['a', 'b', 'c'],
      {
        ...postgresStorageEnv(freshSchema()),
        // Short, so that C's tasks come back within seconds; long enough that a survivor's renewal (every third of
        // it) can be a second or two late on a loaded machine without its task being run a second time.
        MEMD_TASK_LEASE_MS: '4500',
        MEMD_TASK_POLL_MS: '100',
        MEMD_LLM_PROVIDER: 'openai',
        MEMD_LLM_BASE_URL: fake.baseUrl,
        MEMD_LLM_MODEL: 'filer',
        MEMD_LLM_MAX_RETRIES: '0',
        MEMD_LLM_TIMEOUT_MS: '600000',
      },
      (name) => ({ MEMD_LLM_API_KEY: `node-${name}` }),
    );
    const [a, b, c] = group.nodes as [NodeProcess, NodeProcess, NodeProcess];

    const acknowledged: string[] = [];
    let n = 0;
    let stopped = false;
    // A writer per node keeps batches in flight on all three at once; C's dies with C.
    const writer = async (api: Client) => {
      while (!stopped) {
        const operations = Array.from({ length: 20 }, () => ({ op: 'create', content: content(n++) }));
        try {
          const res = await api.post('/v1/memories/batch', { operations });
          if (res.status === 200) for (const r of res.body.results) acknowledged.push(r.memory_id);
        } catch {
          return; // the connection died with the node
        }
      }
    };
    const writers = [writer(a.api), writer(b.api), writer(c.api)];
    const heldByC = () => fake.requests.filter((r) => r.headers.authorization === 'Bearer node-c' && isRefinement(r));
    while (acknowledged.length < 100 || heldByC().length === 0) await sleep(20);
    c.child.kill('SIGKILL');
    expect(await c.exited).toBe('SIGKILL');
    while (acknowledged.length < 200) await sleep(20);
    stopped = true;
    await Promise.all(writers);

    // Every acknowledged write, through both survivors.
    for (const id of acknowledged) {
      expect((await a.api.get(`/v1/memories/${id}`)).status, id).toBe(200);
      expect((await b.api.get(`/v1/memories/${id}`)).status, id).toBe(200);
    }

    // The queue empties without a failure: C's tasks came back after their leases and ran on A and B.
    let counts: { pending: number; running: number; failed: number } = (await a.api.get('/health/ready')).body.services
      .tasks;
    for (let i = 0; i < 600 && counts.pending + counts.running > 0; i++) {
      await sleep(200);
      counts = (await a.api.get('/health/ready')).body.services.tasks;
    }
    expect(counts).toMatchObject({ pending: 0, running: 0, failed: 0 });

    // Each memory's task ran to its end once on the survivors (C finished none), the ones C held included;
    // and did its work once: two facts each.
    const runs = new Map<string, number>();
    for (const r of fake.requests)
      if (r.headers.authorization !== 'Bearer node-c' && isRefinement(r))
        runs.set(r.messages[1]!.content, (runs.get(r.messages[1]!.content) ?? 0) + 1);
    const memories = await allMemories(a.api);
    const parents = memories.filter((m) => m.source_memory_id === null);
    const facts = factsPerMemory(memories);
    expect(parents.length).toBeGreaterThanOrEqual(acknowledged.length);
    for (const { id, content } of parents) {
      expect(runs.get(content), content).toBe(1);
      expect(facts.get(id), id).toBe(2);
    }
    const held = new Set(heldByC().map((r) => r.messages[1]!.content));
    expect(held.size).toBeGreaterThan(0);
    for (const content of held) expect(runs.get(content), content).toBe(1);
  }, 300_000);
});
