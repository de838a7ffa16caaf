import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../logger.js';
import { AppError, notFound } from '../../errors.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type {
  ArticleLink,
  KnowledgebaseArticle,
  KnowledgebaseJob,
  KnowledgebaseMeta,
  Memory,
  MemoryNode,
  Storage,
  Task,
} from '../../storage/types.js';
import { isoNow, type Clock } from '../clock.js';
import type { CoreEvents } from '../events.js';
import type { Community } from '../graph/analysis/communities.js';
import type { GraphService } from '../graph/service.js';
import { newId } from '../ids.js';
import { indexBody, presentArticle, presentMeta } from './render.js';
import { corpusOf, describeTopic, slugOf, type Corpus } from './topics.js';
import { writeExtractive, writeWithLlm, type ArticleDraft } from './writers.js';

export const KNOWLEDGEBASE_TASK = 'knowledgebase.generate';
export const INDEX_ARTICLE_ID = 'index';

export interface GenerateOptions {
  contextId?: string | undefined;
  /** Only memories created at or after this time. */
  since?: string | undefined;
  /** Rewrite every article, changed or not. */
  force: boolean;
  minCommunitySize: number;
  maxCommunities: number;
  resolution: number;
}

export interface GenerationChanges {
  created: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

/** A topic article keeps its id when a new community shares at least this share (Jaccard) of its memories. */
const SAME_TOPIC_OVERLAP = 0.5;
/** Every article of a workspace is read for a regeneration; a knowledgebase has at most maxCommunities + 1. */
const ALL_ARTICLES = 100_000;

interface KnowledgebaseDeps {
  storage: Storage;
  graph: GraphService;
  llm: LlmProvider | null;
  clock: Clock;
  events: CoreEvents;
  log: Logger;
}

/**
 * A knowledgebase per workspace, written from the communities of its association graph: one topic article per
 * community (by the language model when configured, else extractively) and an index. A regeneration rewrites only
 * articles whose memories changed (same members and contents → same signature → left alone) unless `force`; a topic
 * keeps its path-style id while most of its memories stay together.
 */
export class KnowledgebaseService {
  constructor(private readonly deps: KnowledgebaseDeps) {}

  async generate(workspaceId: string, options: GenerateOptions) {
    const { storage, clock } = this.deps;
    const { graph, result } = await this.deps.graph.analyse(
      workspaceId,
      { contextId: options.contextId, createdAfter: options.since },
      ['communities'],
      options.resolution,
    );
    const found = result.communities!;
    const communities = found.communities
      .filter((c) => c.members.length >= options.minCommunitySize)
      .slice(0, options.maxCommunities);
    const existing = await storage.knowledgebase.listArticles(workspaceId, { limit: ALL_ARTICLES, offset: 0 });
    const previousTopics = existing.filter((a) => a.kind === 'topic');
    const nodesOf = (c: Community) => c.members.map((v) => graph.nodes[v]!);
    const matched = matchTopics(
      communities.map((c) => nodesOf(c).map((n) => n.id)),
      previousTopics,
    );
    // Word rarity across the graph, for extractive titles; read once, and only when an article is (re)written.
    let corpus: Corpus | undefined;
    const now = isoNow(clock);
    const changes: GenerationChanges = { created: [], updated: [], unchanged: [], removed: [] };
    const takenIds = new Set([INDEX_ARTICLE_ID, ...[...matched.values()].map((a) => a.id)]);

    const topics: KnowledgebaseArticle[] = [];
    for (const [rank, community] of communities.entries()) {
      const nodes = nodesOf(community);
      const previous = matched.get(rank);
      const signature = signatureOf(nodes);
      const placement = { memory_ids: nodes.map((n) => n.id), community_id: community.id, position: rank + 1 };
      if (previous && previous.signature === signature && !options.force) {
        topics.push({
          ...previous,
          ...placement,
          links: [],
          metadata: { ...previous.metadata, cohesion: round(community.cohesion) },
        });
        changes.unchanged.push(previous.id);
        continue;
      }
      // Reading and writing fifty topics is a long run of synchronous SQLite calls: let other requests in between.
      await yieldToEventLoop();
      const members = await this.membersInOrder(workspaceId, placement.memory_ids);
      corpus ??= corpusOf(graph.nodes.map((n) => n.abstract ?? ''));
      const topic = describeTopic(members, corpus);
      const draft: ArticleDraft = this.deps.llm
        ? await writeWithLlm(this.deps.llm, topic, members, this.deps.log)
        : writeExtractive(topic, members);
      const id = previous?.id ?? uniqueId(`topics/${slugOf(draft.title) || 'topic'}`, takenIds);
      takenIds.add(id);
      topics.push({
        workspace_id: workspaceId,
        id,
        kind: 'topic',
        title: draft.title,
        summary: draft.summary,
        body: draft.body,
        ...placement,
        links: [],
        signature,
        generator: draft.generator,
        metadata: { key_terms: topic.terms, entities: topic.entities, cohesion: round(community.cohesion) },
        created_at: previous?.created_at ?? now,
        updated_at: now,
      });
      (previous ? changes.updated : changes.created).push(id);
    }
    linkTopics(topics, found.links);
    const keptIds = new Set(topics.map((t) => t.id));
    changes.removed = previousTopics.filter((a) => !keptIds.has(a.id)).map((a) => a.id);

    const index = indexArticle(
      workspaceId,
      topics,
      graph.nodes.length,
      existing.find((a) => a.id === INDEX_ARTICLE_ID)?.created_at ?? now,
      now,
    );
    const previousMeta = await storage.knowledgebase.getMeta(workspaceId);
    const meta: KnowledgebaseMeta = {
      workspace_id: workspaceId,
      generated_at: now,
      context_id: options.contextId ?? null,
      since: options.since ?? null,
      generator: this.deps.llm ? 'llm' : 'extractive',
      stats: {
        article_count: topics.length + 1,
        community_count: topics.length,
        node_count: graph.nodes.length,
        edge_count: graph.edges.length,
        unassigned_memories: graph.nodes.length - topics.reduce((sum, t) => sum + t.memory_ids.length, 0),
        modularity: round(found.modularity),
        truncated: graph.truncated,
        ...Object.fromEntries(Object.entries(changes).map(([change, ids]) => [change, ids.length])),
      },
      created_at: previousMeta?.created_at ?? now,
      updated_at: now,
    };
    await storage.transaction(async (tx) => {
      await tx.knowledgebase.deleteArticles(workspaceId, changes.removed);
      for (const article of [index, ...topics]) await tx.knowledgebase.putArticle(article);
      await tx.knowledgebase.putMeta(meta);
    });
    return { ...presentMeta(meta), index: presentArticle(index), changes };
  }

  /** Queues a generation as a durable task; the job says how it went. */
  async enqueue(workspaceId: string, options: GenerateOptions): Promise<KnowledgebaseJob> {
    const now = isoNow(this.deps.clock);
    const job: KnowledgebaseJob = {
      id: newId('job'),
      workspace_id: workspaceId,
      status: 'queued',
      options: { ...options },
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    };
    await this.deps.storage.transaction(async (tx) => {
      await tx.knowledgebase.createJob(job);
      await tx.tasks.enqueue([{ kind: KNOWLEDGEBASE_TASK, workspaceId, payload: { job_id: job.id }, runAt: now }]);
    });
    this.deps.events.tasksQueued();
    return job;
  }

  /** The task handler. A job already finished is not run again; a failure is the job's result, not a retry. */
  readonly handle = async (task: Task): Promise<void> => {
    const { storage, clock } = this.deps;
    const job = await storage.knowledgebase.getJob(task.workspaceId!, String(task.payload.job_id));
    if (!job || job.status === 'succeeded' || job.status === 'failed') return;
    await storage.knowledgebase.updateJob(job.id, { status: 'running', updated_at: isoNow(clock) });
    try {
      const report = await this.generate(job.workspace_id, job.options as unknown as GenerateOptions);
      await storage.knowledgebase.updateJob(job.id, {
        status: 'succeeded',
        result: { ...report.stats, changes: report.changes },
        updated_at: isoNow(clock),
      });
    } catch (error) {
      await storage.knowledgebase.updateJob(job.id, {
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
        updated_at: isoNow(clock),
      });
    }
  };

  async job(workspaceId: string, id: string): Promise<KnowledgebaseJob> {
    const job = await this.deps.storage.knowledgebase.getJob(workspaceId, id);
    if (!job) throw notFound('knowledgebase job', id);
    return job;
  }

  async info(workspaceId: string) {
    const { storage } = this.deps;
    const meta = await storage.knowledgebase.getMeta(workspaceId);
    if (!meta)
      throw new AppError(
        'not_found',
        `workspace '${workspaceId}' has no knowledgebase yet; POST /v1/knowledgebase/generate writes it`,
      );
    const index = await storage.knowledgebase.getArticle(workspaceId, INDEX_ARTICLE_ID);
    return { ...presentMeta(meta), index: index ? presentArticle(index) : null };
  }

  async articles(
    workspaceId: string,
    page: { limit: number; offset: number; kind?: KnowledgebaseArticle['kind'] | undefined },
  ) {
    const { storage } = this.deps;
    const [articles, total] = await Promise.all([
      storage.knowledgebase.listArticles(workspaceId, page),
      storage.knowledgebase.countArticles(workspaceId, page.kind),
    ]);
    return { articles: articles.map(presentArticle), total, limit: page.limit, offset: page.offset };
  }

  async article(workspaceId: string, id: string) {
    const article = await this.deps.storage.knowledgebase.getArticle(workspaceId, id);
    if (!article) throw notFound('article', id);
    return presentArticle(article);
  }

  async export(workspaceId: string) {
    const { index: _index, ...knowledgebase } = await this.info(workspaceId);
    const articles = await this.deps.storage.knowledgebase.listArticles(workspaceId, {
      limit: ALL_ARTICLES,
      offset: 0,
    });
    return {
      version: '1.0',
      exported_at: isoNow(this.deps.clock),
      knowledgebase,
      articles: articles.map(presentArticle),
    };
  }

  /** Articles as nodes and the associations between their memories as weighted links. */
  async graph(workspaceId: string) {
    const { generated_at } = await this.info(workspaceId);
    const articles = await this.deps.storage.knowledgebase.listArticles(workspaceId, {
      limit: ALL_ARTICLES,
      offset: 0,
    });
    const links = articles.flatMap((a) =>
      a.kind === 'topic'
        ? a.links
            .filter((l) => a.id < l.article_id)
            .map((l) => ({ source: a.id, target: l.article_id, weight: l.weight }))
        : [],
    );
    return {
      workspace_id: workspaceId,
      generated_at,
      includes_rpg: false,
      nodes: articles.map((a) => ({
        id: a.id,
        title: a.title,
        article_type: a.kind,
        size: a.memory_ids.length,
        community_id: a.community_id,
      })),
      links,
    };
  }

  /** A community of the last generation, with the article written about it. */
  /** A community of the last generation by its number; any other id (not a number, or none such) is not found. */
  async community(workspaceId: string, id: string) {
    await this.info(workspaceId);
    const communityId = /^\d{1,9}$/.test(id) ? Number(id) : null;
    const topics = await this.deps.storage.knowledgebase.listArticles(workspaceId, {
      limit: ALL_ARTICLES,
      offset: 0,
      kind: 'topic',
    });
    const article = communityId === null ? undefined : topics.find((a) => a.community_id === communityId);
    if (!article || communityId === null) throw notFound('community', id);
    return {
      id: communityId,
      article_id: article.id,
      label: article.title,
      size: article.memory_ids.length,
      memory_ids: article.memory_ids,
      central_memory_ids: article.memory_ids.slice(0, 3),
      cohesion: Number(article.metadata.cohesion ?? 0),
      key_terms: (article.metadata.key_terms as string[] | undefined) ?? [],
      links: article.links,
    };
  }

  /** The memories with their content, in the given (centrality) order. */
  private async membersInOrder(workspaceId: string, ids: readonly string[]): Promise<Memory[]> {
    const byId = new Map((await this.deps.storage.memories.getMany(workspaceId, ids)).map((m) => [m.id, m]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}

/** The index: every topic, largest first, rebuilt on each generation (it is cheap and always extractive). */
function indexArticle(
  workspaceId: string,
  topics: readonly KnowledgebaseArticle[],
  memoryCount: number,
  createdAt: string,
  now: string,
): KnowledgebaseArticle {
  return {
    workspace_id: workspaceId,
    id: INDEX_ARTICLE_ID,
    kind: 'index',
    title: 'Knowledgebase',
    summary: `${topics.length} topics from ${memoryCount} memories`,
    body: indexBody(topics, memoryCount),
    memory_ids: [],
    links: topics.map((t) => ({ article_id: t.id, title: t.title, weight: t.memory_ids.length })),
    community_id: null,
    signature: '',
    generator: 'extractive',
    metadata: {},
    position: 0,
    created_at: createdAt,
    updated_at: now,
  };
}

/** Same memories with the same contents → same signature. */
function signatureOf(nodes: readonly MemoryNode[]): string {
  const lines = nodes.map((n) => `${n.id}:${n.content_hash}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/**
 * Pairs new communities with previous topic articles, greatest overlap first, one to one, when they share at least
 * half of their memories (Jaccard). Returns community rank → article.
 */
function matchTopics(
  communities: readonly string[][],
  previous: readonly KnowledgebaseArticle[],
): Map<number, KnowledgebaseArticle> {
  const articleOf = new Map<string, number>();
  previous.forEach((a, i) => {
    a.memory_ids.forEach((id) => {
      articleOf.set(id, i);
    });
  });
  const candidates: Array<{ rank: number; article: number; overlap: number }> = [];
  communities.forEach((ids, rank) => {
    const shared = new Map<number, number>();
    for (const id of ids) {
      const article = articleOf.get(id);
      if (article !== undefined) shared.set(article, (shared.get(article) ?? 0) + 1);
    }
    for (const [article, count] of shared) {
      const overlap = count / (ids.length + previous[article]!.memory_ids.length - count);
      if (overlap >= SAME_TOPIC_OVERLAP) candidates.push({ rank, article, overlap });
    }
  });
  candidates.sort((x, y) => y.overlap - x.overlap || x.rank - y.rank);
  const matched = new Map<number, KnowledgebaseArticle>();
  const used = new Set<number>();
  for (const { rank, article } of candidates) {
    if (matched.has(rank) || used.has(article)) continue;
    matched.set(rank, previous[article]!);
    used.add(article);
  }
  return matched;
}

/** Topics link to each other where associations join their memories; the weight counts those pairs. */
function linkTopics(
  topics: KnowledgebaseArticle[],
  links: ReadonlyArray<{ a: number; b: number; pairs: number }>,
): void {
  const byCommunity = new Map(topics.map((t) => [t.community_id, t]));
  for (const { a, b, pairs } of links) {
    const x = byCommunity.get(a);
    const y = byCommunity.get(b);
    if (!x || !y) continue;
    x.links.push({ article_id: y.id, title: y.title, weight: pairs });
    y.links.push({ article_id: x.id, title: x.title, weight: pairs });
  }
  const heaviest = (p: ArticleLink, q: ArticleLink) => q.weight - p.weight || p.article_id.localeCompare(q.article_id);
  for (const topic of topics) topic.links = [...topic.links].sort(heaviest);
}

function uniqueId(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const round = (x: number): number => Math.round(x * 1e6) / 1e6;
