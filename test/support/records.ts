import { randomBytes } from 'node:crypto';
import type { Association, ChatThread, McpServerEntry, NewMemory, Workspace } from '../../src/storage/types.js';

export const NOW = '2026-01-01T00:00:00.000Z';

export const id = (prefix: string): string => `${prefix}_${randomBytes(8).toString('hex')}`;

export function workspace(workspaceId: string, at = NOW): Workspace {
  return { id: workspaceId, tenant_id: 'default', name: workspaceId, settings: {}, created_at: at, updated_at: at };
}

/** A unit vector pointing mostly along `axis`, so tests know which memories are nearest. */
export function axisVector(dimensions: number, axis: number, spill = 0): Float32Array {
  const v = new Float32Array(dimensions);
  v[axis % dimensions] = 1;
  if (spill) v[(axis + 1) % dimensions] = spill;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** A reproducible unit vector per seed, spread over every dimension. */
export function seededVector(dimensions: number, seed: number): Float32Array {
  let state = seed * 7919 + 17;
  const v = Float32Array.from({ length: dimensions }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  });
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

export function memory(
  workspaceId: string,
  content: string,
  embedding: Float32Array,
  overrides: Partial<NewMemory> = {},
): NewMemory {
  return {
    id: id('mem'),
    workspace_id: workspaceId,
    tenant_id: 'default',
    context_id: '_default',
    user_id: null,
    content,
    content_hash: `hash:${content}`,
    type: 'semantic',
    subtype: null,
    importance: 0.5,
    tags: [],
    metadata: {},
    abstract: null,
    overview: null,
    session_id: null,
    access_count: 0,
    last_accessed_at: null,
    decay_factor: 1,
    source_scope: null,
    source_memory_id: null,
    pinned: false,
    status: 'active',
    deleted_at: null,
    archived_at: null,
    observer_id: null,
    subject_id: null,
    occurred_at: null,
    created_at: NOW,
    updated_at: NOW,
    embedding,
    mentions: null,
    ...overrides,
  };
}

export function association(
  workspaceId: string,
  sourceId: string,
  targetId: string,
  relationship = 'similar_to',
  strength = 0.5,
): Association {
  return {
    id: id('assoc'),
    workspace_id: workspaceId,
    source_id: sourceId,
    target_id: targetId,
    relationship,
    strength,
    metadata: {},
    created_at: NOW,
  };
}

export function thread(workspaceId: string, threadId: string, overrides: Partial<ChatThread> = {}): ChatThread {
  return {
    id: threadId,
    workspace_id: workspaceId,
    tenant_id: 'default',
    user_id: null,
    context_id: '_default',
    observer_id: null,
    subject_id: null,
    title: null,
    metadata: {},
    message_count: 0,
    last_decomposed_at: null,
    last_decomposed_index: -1,
    expires_at: null,
    created_at: NOW,
    updated_at: NOW,
    ...overrides,
  };
}

export const mcpServer = (
  name: string,
  owner: Pick<McpServerEntry, 'scope' | 'workspace_id' | 'user_id'>,
  overrides: Partial<McpServerEntry> = {},
): McpServerEntry => ({
  id: id('mcp'),
  tenant_id: 'default',
  name,
  description: null,
  transport: 'stdio',
  command: 'npx',
  args: ['-y', 'server'],
  url: null,
  env_keys: [],
  header_keys: [],
  sealed_secrets: null,
  source_mode: 'server',
  enabled: true,
  metadata: {},
  last_synced_at: null,
  created_at: NOW,
  updated_at: NOW,
  ...owner,
  ...overrides,
});
