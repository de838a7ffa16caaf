import type { KnowledgebaseArticle, KnowledgebaseMeta } from '../../storage/types.js';

/** An article as the API serves it: the stored body plus the links to related articles, rendered as Markdown. */
export function presentArticle(article: KnowledgebaseArticle) {
  const related =
    article.kind === 'topic' && article.links.length > 0
      ? `\n\n## Related\n\n${article.links.map((l) => `- [${l.title}](${l.article_id}) (${l.weight} association${l.weight === 1 ? '' : 's'})`).join('\n')}`
      : '';
  return {
    id: article.id,
    article_type: article.kind,
    title: article.title,
    summary: article.summary,
    content: article.body + related,
    memory_ids: article.memory_ids,
    memory_count: article.memory_ids.length,
    links: article.links,
    community_id: article.community_id,
    generator: article.generator,
    metadata: article.metadata,
    created_at: article.created_at,
    updated_at: article.updated_at,
  };
}

export type PresentedArticle = ReturnType<typeof presentArticle>;

export function presentMeta(meta: KnowledgebaseMeta) {
  return {
    workspace_id: meta.workspace_id,
    generated_at: meta.generated_at,
    context_id: meta.context_id,
    since: meta.since,
    generator: meta.generator,
    article_count: Number(meta.stats.article_count ?? 0),
    community_count: Number(meta.stats.community_count ?? 0),
    stats: meta.stats,
  };
}

/** The index: every topic with its summary and size, largest first. */
export function indexBody(topics: readonly KnowledgebaseArticle[], memoryCount: number): string {
  const covered = new Set(topics.flatMap((t) => t.memory_ids)).size;
  const lines = topics.map((t) => `- [${t.title}](${t.id}): ${t.summary} (${t.memory_ids.length} memories)`);
  return [
    '# Knowledgebase',
    `${topics.length} topic${topics.length === 1 ? '' : 's'} covering ${covered} of ${memoryCount} memories.`,
    '## Topics',
    lines.length > 0 ? lines.join('\n') : 'No topic yet: memories need associations between them to form communities.',
  ].join('\n\n');
}
