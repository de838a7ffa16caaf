import type { Client } from './server.js';

export interface ListedMemory {
  id: string;
  content: string;
  source_memory_id: string | null;
}

/** Every memory of the default workspace, page by page. */
export async function allMemories(api: Client): Promise<ListedMemory[]> {
  const all: ListedMemory[] = [];
  let cursor: string | null = null;
  do {
    const page: { memories: ListedMemory[]; next_cursor: string | null } = (
      await api.get(`/v1/memories?limit=500${cursor ? `&cursor=${cursor}` : ''}`)
    ).body;
    all.push(...page.memories);
    cursor = page.next_cursor;
  } while (cursor);
  return all;
}

/** How many atomic facts each memory has, by parent id. */
export function factsPerMemory(memories: readonly ListedMemory[]): Map<string, number> {
  const perParent = new Map<string, number>();
  for (const m of memories)
    if (m.source_memory_id) perParent.set(m.source_memory_id, (perParent.get(m.source_memory_id) ?? 0) + 1);
  return perParent;
}
