import type { Logger } from '../logger.js';
import { completeJson } from '../../providers/llm/json.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import type { Memory, MemoryType } from '../../storage/types.js';
import { truncateAtWord } from '../text/index.js';
import type { Topic } from './topics.js';

/** What a writer produces for one topic; the service adds the bookkeeping (id, links, signature). */
export interface ArticleDraft {
  title: string;
  summary: string;
  /** Markdown, starting with the title as a heading. */
  body: string;
  generator: 'llm' | 'extractive';
}

const KEY_POINTS = 5;
const PER_SECTION = 10;
const POINT_CHARS = 300;
const SUMMARY_CHARS = 300;

/** Link to a memory as the API serves it. */
export const memoryLink = (id: string): string => `[${id}](/v1/memories/${id})`;

const SECTION_BY_TYPE: Record<MemoryType, string> = {
  semantic: 'Facts',
  procedural: 'How-to',
  episodic: 'Events',
  working: 'Working notes',
};

/**
 * An article without a language model: the summary is the most central memory's abstract; "Key points" are the
 * most central memories; the rest are grouped by memory type (events in time order); every point links its memory.
 */
export function writeExtractive(topic: Topic, members: readonly Memory[]): ArticleDraft {
  const point = (m: Memory) =>
    `- ${truncateAtWord(m.content.replace(/\s+/g, ' ').trim(), POINT_CHARS)} (${memoryLink(m.id)})`;
  const lead = members[0];
  const summary = lead ? truncateAtWord(lead.abstract ?? lead.content, SUMMARY_CHARS) : '';
  const sections = [`# ${topic.title}`, summary, '## Key points', members.slice(0, KEY_POINTS).map(point).join('\n')];
  const rest = members.slice(KEY_POINTS);
  for (const type of Object.keys(SECTION_BY_TYPE) as MemoryType[]) {
    const ofType = rest.filter((m) => m.type === type);
    if (ofType.length === 0) continue;
    if (type === 'episodic')
      ofType.sort((a, b) => (a.occurred_at ?? a.created_at).localeCompare(b.occurred_at ?? b.created_at));
    const more = ofType.length > PER_SECTION ? `\n- … and ${ofType.length - PER_SECTION} more` : '';
    sections.push(`## ${SECTION_BY_TYPE[type]}`, ofType.slice(0, PER_SECTION).map(point).join('\n') + more);
  }
  const labels = [...topic.entities, ...topic.terms];
  if (labels.length > 0) sections.push('## Key terms', labels.join(', '));
  return { title: topic.title, summary, body: sections.filter((s) => s !== '').join('\n\n'), generator: 'extractive' };
}

interface LlmArticle {
  title: string;
  summary: string;
  sections: Array<{ heading: string; content: string }>;
}

const PROMPT_MEMORIES = 40;
const PROMPT_MEMORY_CHARS = 600;
const SOURCES_LISTED = 50;

const SYSTEM = [
  'You write one article of a knowledgebase from the memories of an AI agent that belong to one topic.',
  'Use only what the memories say; do not add outside knowledge. Cite memories by id in square brackets, e.g. [mem_0123456789abcdef].',
  'Answer with a JSON object: {"title": a short topic title (at most 80 characters), "summary": one or two sentences,',
  '"sections": 2 to 5 objects {"heading": string, "content": Markdown paragraphs or bullet points}}.',
].join('\n');

function parseArticle(value: unknown): LlmArticle {
  const v = value as Partial<Record<keyof LlmArticle, unknown>> | null;
  const text = (x: unknown, max: number) =>
    typeof x === 'string' && x.trim() && x.length <= max ? x.trim() : undefined;
  const title = text(v?.title, 200);
  const summary = text(v?.summary, 2000);
  if (!title || !summary || !Array.isArray(v?.sections) || v.sections.length === 0)
    throw new Error('expected {title, summary, sections: [{heading, content}]}');
  const sections = v.sections.map((s: unknown) => {
    const section = s as { heading?: unknown; content?: unknown } | null;
    const heading = text(section?.heading, 200);
    const content = text(section?.content, 20_000);
    if (!heading || !content) throw new Error('every section needs a heading and content');
    return { heading, content };
  });
  return { title: truncateAtWord(title, 80), summary, sections };
}

/**
 * An article written by the configured language model from the topic's most central memories. A failed or unusable
 * answer (after completeJson's corrective retry) falls back to the extractive article: generation never fails
 * because of the model.
 */
export async function writeWithLlm(
  llm: LlmProvider,
  topic: Topic,
  members: readonly Memory[],
  log: Logger,
): Promise<ArticleDraft> {
  const listed = members
    .slice(0, PROMPT_MEMORIES)
    .map(
      (m) =>
        `[${m.id}] (${m.type}${m.subtype ? `/${m.subtype}` : ''}) ${truncateAtWord(m.content.replace(/\s+/g, ' ').trim(), PROMPT_MEMORY_CHARS)}`,
    )
    .join('\n');
  const hints = [...topic.entities, ...topic.terms].join(', ');
  try {
    const { value } = await completeJson(
      llm,
      {
        system: SYSTEM,
        messages: [
          { role: 'user', content: `Key terms: ${hints || 'none'}\n\nMemories, most central first:\n${listed}` },
        ],
        temperature: 0.2,
      },
      parseArticle,
    );
    const sources = members.slice(0, SOURCES_LISTED).map((m) => `- ${memoryLink(m.id)}`);
    const more = members.length > SOURCES_LISTED ? [`- … and ${members.length - SOURCES_LISTED} more`] : [];
    const body = [
      `# ${value.title}`,
      value.summary,
      ...value.sections.flatMap((s) => [`## ${s.heading}`, s.content]),
      '## Sources',
      [...sources, ...more].join('\n'),
    ].join('\n\n');
    return { title: value.title, summary: value.summary, body, generator: 'llm' };
  } catch (error) {
    log.warn(
      { topic: topic.title, err: error instanceof Error ? error.message : String(error) },
      'LLM article failed; writing it extractively',
    );
    return writeExtractive(topic, members);
  }
}
