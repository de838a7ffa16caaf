import type { SourceMode } from '../../storage/types.js';

/** One side's copy of a synced item: its content hash and when it last changed there. */
export interface SyncCopy {
  sha256: string;
  modifiedAt: string;
}

export type SyncAction = 'in_sync' | 'upload' | 'download' | 'delete_on_client' | 'delete_on_server';

export interface SyncDecision {
  action: SyncAction;
  /** Both sides changed since the last sync (or there was none) and differ: the source mode chose. */
  conflict: boolean;
}

/**
 * The two-way decision for one item (a skill file, an MCP server's config), from the client's copy, the server's
 * and `since` — the `synced_at` of the client's last completed sync (null: never synced). A side changed if its
 * copy is newer than `since`. One side changed: its copy wins. A copy missing on one side and unchanged on the
 * other since the last sync was deleted: the deletion wins; a copy changed since then wins over a deletion.
 * Both changed: the canonical side of the source mode wins (`server`: the server; `filesystem`: the client;
 * `mirrored`: the later change, the server on a tie).
 */
export function decideSync(
  client: SyncCopy | null,
  server: SyncCopy | null,
  since: string | null,
  mode: SourceMode,
): SyncDecision {
  const changed = (copy: SyncCopy) => since === null || Date.parse(copy.modifiedAt) > Date.parse(since);
  if (client && server) {
    if (client.sha256 === server.sha256) return { action: 'in_sync', conflict: false };
    const clientChanged = changed(client);
    const serverChanged = changed(server);
    if (clientChanged !== serverChanged) return { action: clientChanged ? 'upload' : 'download', conflict: false };
    return { action: conflictWinner(client, server, mode), conflict: true };
  }
  if (client) return { action: changed(client) ? 'upload' : 'delete_on_client', conflict: false };
  if (server) return { action: changed(server) ? 'download' : 'delete_on_server', conflict: false };
  return { action: 'in_sync', conflict: false };
}

function conflictWinner(client: SyncCopy, server: SyncCopy, mode: SourceMode): 'upload' | 'download' {
  if (mode === 'filesystem') return 'upload';
  if (mode === 'mirrored' && Date.parse(client.modifiedAt) > Date.parse(server.modifiedAt)) return 'upload';
  return 'download';
}
