import { expect } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';

/** A workspace whose writes are never merged as near-duplicates, so every text given becomes its own memory. */
export async function graphWorkspace(memd: MemdClient, id: string): Promise<string> {
  await memd.workspaces.create({ id, name: id, settings: { deduplication: false } });
  return id;
}

/** Creates one memory per text (batch endpoint, 1,000 per call) and returns their ids in order. */
export async function remember(
  memd: MemdClient,
  workspaceId: string,
  contents: readonly string[],
  fields: Record<string, unknown> = {},
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < contents.length; start += 1000) {
    const operations = contents
      .slice(start, start + 1000)
      .map((content) => ({ ...fields, op: 'create' as const, content }));
    const answer = await memd.memories.batch({ workspace_id: workspaceId, operations });
    expect(answer.failed, JSON.stringify(answer.results.filter((r) => !r.success))).toBe(0);
    ids.push(...answer.results.map((r) => r.memory_id!));
  }
  return ids;
}

/** Links two memories through the API and returns the association. */
export async function link(
  memd: MemdClient,
  workspaceId: string,
  source: string,
  target: string,
  relationship = 'related_to',
  strength = 0.5,
) {
  const { data, status } = await memd.memories.associate.withResponse(source, {
    workspace_id: workspaceId,
    target_id: target,
    relationship,
    strength,
  });
  expect(status, JSON.stringify(data)).toBe(201);
  return data.association;
}

/** Distinct, unrelated texts: `topic` words keep the hash embedder from seeing them as near-duplicates. */
export const texts = (count: number, topic = 'note'): string[] =>
  Array.from(
    { length: count },
    (_, i) =>
      `${topic} ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 13 + 5) % WORDS.length]} ${i * 31}`,
  );

const WORDS =
  'amber basalt cedar delta ember fjord garnet harbor iris jasper kelp lagoon maple nectar onyx prairie quartz river sierra tundra umber violet willow xenon yarrow zephyr'.split(
    ' ',
  );
