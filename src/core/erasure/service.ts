import { createHash } from 'node:crypto';
import { notFound } from '../../errors.js';
import type { ErasureAudit, ErasureCounts, PersonSelector, Storage } from '../../storage/types.js';
import type { Principal } from '../access/principal.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import { newId } from '../ids.js';
import type { SandboxCleanup } from '../sessions/service.js';

export type { PersonSelector } from '../../storage/types.js';

/** One workspace, or every workspace the caller may use. */
export type ErasureScope = { workspaceId: string } | { allWorkspaces: true };

export interface ErasureRequest {
  selector: PersonSelector;
  scope: ErasureScope;
  principal: Principal;
}

/** What the caller is told: its own selector back, where the erasure ran, and how many rows of each kind went. */
export interface Erasure {
  id: string;
  erased_at: string;
  selector: Partial<Record<PersonSelector['kind'], string>>;
  workspaces: string[];
  removed: ErasureCounts;
}

/** Hard deletes per statement. */
const MEMORY_BATCH = 500;

/** Counts of an erasure that found nothing. */
export const noneRemoved = (): ErasureCounts => ({
  memories: 0,
  associations: 0,
  contradictions: 0,
  document_links: 0,
  knowledgebase_articles: 0,
  entity_cards: 0,
  sessions: 0,
  working_memory_entries: 0,
  sandbox_checkpoints: 0,
  threads: 0,
  messages: 0,
  skills: 0,
  mcp_servers: 0,
});

function addTo(total: ErasureCounts, part: Partial<ErasureCounts>): void {
  for (const [kind, count] of Object.entries(part) as Array<[keyof ErasureCounts, number]>) total[kind] += count;
}

/**
 * How the audit record names whom an erasure was for. User and subject ids are often e-mail addresses or names:
 * personal data that the erasure exists to remove, so the record keeps only a SHA-256 of the selector. Whoever knows
 * the id can hash it again and find the record (to show that an erasure happened); the record alone does not say
 * whom it was for. (A guessable id can be found by hashing guesses: the audit list is admin-only.)
 */
export const selectorHash = (selector: PersonSelector): string =>
  createHash('sha256').update(`memd-erasure:${selector.kind}:${selector.id}`, 'utf8').digest('hex');

const requestedBy = (principal: Principal): string =>
  principal.kind === 'key' ? `key:${principal.key.id}` : principal.kind;

interface ErasureDeps {
  storage: Storage;
  clock: Clock;
  events: CoreEvents;
  /** Stops the live sandbox of a session that goes. */
  sandboxes: SandboxCleanup;
}

/**
 * Erasure: everything of one user or one subject, in one workspace or in every workspace the caller may use,
 * removed for good in one transaction, with an audit record that keeps no content (NOTES.md, "Erasure").
 */
export class ErasureService {
  constructor(private readonly deps: ErasureDeps) {}

  async erase({ selector, scope, principal }: ErasureRequest): Promise<Erasure> {
    const { storage, clock, events, sandboxes } = this.deps;
    const workspaces = await this.workspacesOf(scope, principal);
    // A user's registry entries above any workspace belong to no workspace: the admin erasing everywhere takes them.
    const aboveWorkspaces = 'allWorkspaces' in scope && principal.kind !== 'key';
    const removed = noneRemoved();
    const sessions: string[] = [];
    const changed: string[] = [];
    const audit = await storage.transaction(async (tx) => {
      for (const workspaceId of workspaces) {
        const records = await tx.erasure.find(workspaceId, selector);
        addTo(removed, await tx.erasure.removeAround(workspaceId, selector, records));
        let memories = 0;
        for (let start = 0; start < records.memoryIds.length; start += MEMORY_BATCH) {
          memories += await tx.memories.hardDelete(workspaceId, records.memoryIds.slice(start, start + MEMORY_BATCH));
        }
        removed.memories += memories;
        if (memories > 0) changed.push(workspaceId);
        sessions.push(...records.sessionIds);
      }
      if (aboveWorkspaces) addTo(removed, await tx.erasure.removeTenantLevel(selector));
      if (removed.memories > 0) await tx.erasure.purgeSearchEntries();
      const record: ErasureAudit = {
        id: newId('erasure'),
        erased_at: isoNow(clock),
        requested_by: requestedBy(principal),
        selector_kind: selector.kind,
        selector_hash: selectorHash(selector),
        workspaces,
        removed,
      };
      await tx.erasure.recordAudit(record);
      return record;
    });
    for (const sessionId of sessions) await sandboxes.cleanup(sessionId);
    // Recall caches (on every node) stop answering with what was removed.
    for (const workspaceId of changed) await events.memoriesChanged(workspaceId);
    return {
      id: audit.id,
      erased_at: audit.erased_at,
      selector: { [selector.kind]: selector.id },
      workspaces,
      removed,
    };
  }

  /** The audit trail, newest first. */
  audits(limit: number): Promise<ErasureAudit[]> {
    return this.deps.storage.erasure.listAudits(limit);
  }

  /** A named workspace must exist: an erasure that silently found nothing in a mistyped one would mislead. */
  private async workspacesOf(scope: ErasureScope, principal: Principal): Promise<string[]> {
    const { workspaces } = this.deps.storage;
    if ('workspaceId' in scope) {
      if (!(await workspaces.get(scope.workspaceId))) throw notFound('workspace', scope.workspaceId);
      return [scope.workspaceId];
    }
    const existing = (await workspaces.list()).map((w) => w.id);
    return principal.kind === 'key' ? existing.filter((id) => principal.key.workspaces.includes(id)) : existing;
  }
}
