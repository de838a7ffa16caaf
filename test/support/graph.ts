import { expect } from 'vitest';
import type { Client } from './server.js';

/** A workspace whose writes are never merged as near-duplicates, so every text given becomes its own memory. */
export async function graphWorkspace(api: Client, id: string): Promise<string> {
  const res = await api.post('/v1/workspaces', { id, name: id, settings: { deduplication: false } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return id;
}

/** Creates one memory per text (batch endpoint, 1,000 per call) and returns their ids in order. */
export async function remember(api: Client, workspaceId: string, contents: readonly string[], fields: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < contents.length; start += 1000) {
    const operations = contents.slice(start, start + 1000).map((content) => ({ op: 'create', content, ...fields }));
    const res = await api.post('/v1/memories/batch', { workspace_id: workspaceId, operations });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.failed).toBe(0);
    ids.push(...res.body.results.map((r: { memory_id: string }) => r.memory_id));
  }
  return ids;
}

/** Links two memories through the API and returns the association. */
export async function link(api: Client, workspaceId: string, source: string, target: string, relationship = 'related_to', strength = 0.5) {
  const res = await api.post(`/v1/memories/${source}/associate`, { workspace_id: workspaceId, target_id: target, relationship, strength });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.association;
}

/** Distinct, unrelated texts: `topic` words keep the hash embedder from seeing them as near-duplicates. */
export const texts = (count: number, topic = 'note'): string[] =>
  Array.from({ length: count }, (_, i) => `${topic} ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${i * 31}`);

const WORDS = 'amber basalt cedar delta ember fjord garnet harbor iris jasper kelp lagoon maple nectar onyx prairie quartz river sierra tundra umber violet willow xenon yarrow zephyr'.split(' ');
