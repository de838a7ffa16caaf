import { notFound } from '../../errors.js';
import type { EntityCard } from '../../schemas/entity.js';
import type { Memory, MemoryFilter } from '../../storage/types.js';
import { isoNow } from '../clock.js';
import type { MemoryDraft } from '../memories/records.js';
import {
  llmInsights,
  llmReflection,
  ruleInsights,
  ruleReflection,
  type ProposedInsight,
  type Reflection,
} from './insights.js';
import type { DerivationDeps } from '../extraction/deps.js';

export interface DeriveResult {
  subject_id: string;
  workspace_id: string;
  insights_created: number;
  insights_updated: number;
  source_memory_count: number;
  insights: Memory[];
}

const INSIGHT_SUBTYPE = 'inference';
const MAX_SOURCES = 500;
const CARD_SOURCES = 10;
const SOURCE_IDS_KEPT = 50;

const latest = (memories: readonly Memory[]): string =>
  memories.reduce((max, m) => (m.updated_at > max ? m.updated_at : max), '');

/**
 * Entities are the subjects memories are about (`subject_id`). Insights about one are derived from those memories
 * and stored as memories of subtype `inference`, one per aspect (`metadata.insight_key`), so deriving again updates
 * them instead of adding copies. The card (a reflection, the insights, the main sources) is cached and rebuilt when
 * the memories about the entity change.
 */
export class EntityService {
  constructor(private readonly deps: DerivationDeps) {}

  async derive(
    workspaceId: string,
    entityId: string,
    options: { observerId?: string | undefined; force: boolean },
  ): Promise<DeriveResult> {
    await this.deps.workspaces.get(workspaceId);
    const sources = await this.sources(workspaceId, entityId, options.observerId);
    const existing = await this.insightsOf(workspaceId, entityId, options.observerId ?? null);
    const result = {
      subject_id: entityId,
      workspace_id: workspaceId,
      insights_created: 0,
      insights_updated: 0,
      source_memory_count: sources.length,
    };
    // Up to date: no memory about the entity changed since the insights were last written.
    if (!options.force && existing.length > 0 && latest(existing) >= latest(sources))
      return { ...result, insights: existing };

    const proposed = await this.propose(entityId, options.observerId, sources, existing);
    const byKey = new Map(existing.map((m) => [String(m.metadata.insight_key), m]));
    const now = isoNow(this.deps.clock);
    // Derived memories hang off a parent (the newest evidence): recall and dedup treat them as derived, and they
    // go stale with it. The metadata keeps the wider provenance.
    const anchor = sources.reduce((newest, m) => (m.updated_at > newest.updated_at ? m : newest));
    const metadata = (insight: ProposedInsight) => ({
      insight_key: insight.key,
      derived_by: proposed.by,
      rule_based: proposed.by === 'rules',
      source_memory_count: sources.length,
      source_memory_ids: sources.slice(0, SOURCE_IDS_KEPT).map((m) => m.id),
      derived_at: now,
    });
    const drafts: MemoryDraft[] = [];
    for (const insight of proposed.insights) {
      const current = byKey.get(insight.key);
      if (!current) {
        drafts.push({
          content: insight.content,
          type: 'semantic',
          subtype: INSIGHT_SUBTYPE,
          importance: insight.importance,
          subject_id: entityId,
          observer_id: options.observerId,
          source_memory_id: anchor.id,
          source_scope: 'insight',
          metadata: metadata(insight),
        });
      } else if (current.content !== insight.content) {
        await this.deps.memories.update(workspaceId, current.id, {
          content: insight.content,
          importance: insight.importance,
          metadata: metadata(insight),
        });
        result.insights_updated++;
      }
    }
    if (drafts.length > 0) {
      const outcomes = await this.deps.memories.createMany(await this.deps.workspaces.writeScope(workspaceId), drafts);
      result.insights_created = outcomes.filter((o) => !('error' in o) && o.action === 'created').length;
    }
    return { ...result, insights: await this.insightsOf(workspaceId, entityId, options.observerId ?? null) };
  }

  async card(workspaceId: string, entityId: string, options: { forceRefresh: boolean }): Promise<EntityCard> {
    const { storage, clock } = this.deps;
    await this.deps.workspaces.get(workspaceId);
    if (!options.forceRefresh) {
      const cached = await storage.entities.getCard(workspaceId, entityId);
      if (cached && cached.fingerprint === (await storage.entities.subjectFingerprint(workspaceId, entityId))) {
        return { ...(cached.card as unknown as EntityCard), cached: true };
      }
    }
    const { insights } = await this.derive(workspaceId, entityId, { force: false });
    const sources = (await this.sources(workspaceId, entityId, undefined))
      .sort((a, b) => b.importance - a.importance)
      .slice(0, CARD_SOURCES);
    const { reflection, confidence } = await this.reflect(entityId, insights, sources);
    const card: EntityCard = {
      entity_id: entityId,
      workspace_id: workspaceId,
      reflection,
      insights,
      source_memories: sources,
      confidence,
      cached: false,
      generated_at: isoNow(clock),
    };
    // Fingerprinted after derivation: the insights just written are part of what the card reflects.
    const fingerprint = await storage.entities.subjectFingerprint(workspaceId, entityId);
    await storage.entities.putCard({
      workspace_id: workspaceId,
      entity_id: entityId,
      card: { ...card },
      fingerprint,
      generated_at: card.generated_at,
    });
    return card;
  }

  async insights(
    workspaceId: string,
    entityId: string,
    options: { observerId?: string | undefined; limit: number },
  ): Promise<{ insights: Memory[]; total: number }> {
    await this.deps.workspaces.get(workspaceId);
    const filter: MemoryFilter = {
      subjectId: entityId,
      subtypes: [INSIGHT_SUBTYPE],
      ...(options.observerId === undefined ? {} : { observerId: options.observerId }),
    };
    const page = await this.deps.storage.memories.list(workspaceId, filter, { limit: options.limit });
    return { insights: page.items, total: await this.deps.storage.memories.count(workspaceId, filter) };
  }

  /** Stated memories about the entity (facts and insights are derived, so excluded); 404 when there are none. */
  private async sources(workspaceId: string, entityId: string, observerId: string | undefined): Promise<Memory[]> {
    const filter: MemoryFilter = {
      subjectId: entityId,
      derived: false,
      ...(observerId === undefined ? {} : { observerId }),
    };
    const sources = (await this.deps.storage.memories.list(workspaceId, filter, { limit: MAX_SOURCES })).items;
    if (sources.length === 0) throw notFound('entity (no memories have it as subject_id)', entityId);
    return sources;
  }

  /** Insights of one perspective: the observer's, or those derived without one. */
  private async insightsOf(workspaceId: string, entityId: string, observerId: string | null): Promise<Memory[]> {
    const page = await this.deps.storage.memories.list(
      workspaceId,
      { subjectId: entityId, subtypes: [INSIGHT_SUBTYPE] },
      { limit: 1_000 },
    );
    return page.items.filter((m) => m.observer_id === observerId);
  }

  private async propose(
    entityId: string,
    observerId: string | undefined,
    sources: readonly Memory[],
    existing: readonly Memory[],
  ): Promise<{ insights: ProposedInsight[]; by: 'rules' | 'llm' }> {
    const { llm, log } = this.deps;
    if (!llm) return { insights: ruleInsights(entityId, observerId, sources), by: 'rules' };
    try {
      return {
        insights: await llmInsights(
          llm,
          entityId,
          sources,
          existing.map((m) => String(m.metadata.insight_key)),
        ),
        by: 'llm',
      };
    } catch (error) {
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM insight derivation failed; using rules',
      );
      return { insights: ruleInsights(entityId, observerId, sources), by: 'rules' };
    }
  }

  private async reflect(
    entityId: string,
    insights: readonly Memory[],
    sources: readonly Memory[],
  ): Promise<Reflection> {
    const { llm, log } = this.deps;
    if (!llm) return ruleReflection(entityId, sources);
    try {
      return await llmReflection(llm, entityId, insights, sources);
    } catch (error) {
      log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'LLM entity reflection failed; using rules',
      );
      return ruleReflection(entityId, sources);
    }
  }
}
