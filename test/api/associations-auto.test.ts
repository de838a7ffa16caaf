import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphWorkspace } from '../support/graph.js';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
});

type NewMemory = Parameters<MemdClient['memories']['create']>[0];
afterAll(() => server.stop());

/** Writes the older memory, then the newer one, lets enrichment link them, and returns the newer one's automatic links. */
async function autoLinks(ws: string, older: NewMemory, newer: NewMemory) {
  const first = (await memd.memories.create({ ...older, workspace_id: ws })).memory;
  await server.drainTasks();
  const second = (await memd.memories.create({ ...newer, workspace_id: ws })).memory;
  await server.drainTasks();
  const edges = (await memd.associations.list(second.id, { workspace_id: ws, direction: 'outgoing' })).associations;
  // Only the similarity links (contradiction detection adds `contradicts` edges of its own).
  return { first, second, edges: edges.filter((e) => e.metadata.similarity_score !== undefined) };
}

describe('automatic association picks the relationship from the taxonomy', () => {
  it('a fix solves the problem it is similar to', async () => {
    const ws = await graphWorkspace(memd, 'auto-fix');
    const { first, edges } = await autoLinks(
      ws,
      { content: 'Checkout fails with HTTP 502 errors under heavy load', subtype: 'error', type: 'semantic' },
      {
        content: 'Fix for checkout failing with HTTP 502 errors under heavy load: raise the proxy timeout',
        subtype: 'fix',
        type: 'procedural',
      },
    );
    expect(edges).toEqual([
      expect.objectContaining({
        target_id: first.id,
        relationship: 'solves',
        metadata: expect.objectContaining({ similarity_score: expect.any(Number) }),
      }),
    ]);
    expect(edges[0]!.strength).toBeGreaterThanOrEqual(0.6);
  });

  it('a changed preference about the same subject supersedes the old one', async () => {
    const ws = await graphWorkspace(memd, 'auto-pref');
    const { first, edges } = await autoLinks(
      ws,
      { content: 'Ada prefers tea in the morning', subtype: 'preference', subject_id: 'ada' },
      { content: 'Ada now prefers coffee in the morning instead of tea', subtype: 'preference', subject_id: 'ada' },
    );
    expect(edges).toEqual([expect.objectContaining({ target_id: first.id, relationship: 'supersedes' })]);
  });

  it('events with known times are ordered; near-copies are variants; the rest is similar_to', async () => {
    const ws = await graphWorkspace(memd, 'auto-time');
    const events = await autoLinks(
      ws,
      {
        content: 'Weekly sprint review meeting with the platform team',
        type: 'episodic',
        metadata: { occurred_at: '2026-02-02T10:00:00Z' },
      },
      {
        content: 'Weekly sprint review meeting with the platform team and design',
        type: 'episodic',
        metadata: { occurred_at: '2026-02-09T10:00:00Z' },
      },
    );
    expect(events.edges).toEqual([expect.objectContaining({ target_id: events.first.id, relationship: 'after' })]);

    const ws2 = await graphWorkspace(memd, 'auto-plain');
    const variant = await autoLinks(
      ws2,
      { content: 'Weekly sprint review meeting with the platform team' },
      { content: 'Weekly sprint review meeting with the platform team and design' },
    );
    expect(variant.edges).toEqual([
      expect.objectContaining({ target_id: variant.first.id, relationship: 'variant_of' }),
    ]);
    const similar = await autoLinks(
      ws2,
      { content: 'The payment service times out under heavy load' },
      { content: 'The payment service times out under load on Fridays' },
    );
    expect(similar.edges.find((e) => e.target_id === similar.first.id)).toMatchObject({ relationship: 'similar_to' });
  });
});
