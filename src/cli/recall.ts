import Table from 'cli-table3';
import type { Command } from 'commander';
import { MEMORY_TYPES } from '../core/memories/vocabulary.js';
import { number, repeatable } from './option-values.js';
import {
  addConnectionOptions,
  addWorkspaceOption,
  connect,
  type JsonBody,
  type Operation,
  type RemoteOptions,
  type Result,
} from './remote.js';

type RecallOperation = Operation<'/v1/memories/recall', 'post'>;
type RecallBody = JsonBody<RecallOperation>;
type RecallResponse = Result<RecallOperation>;

interface RecallOptions extends RemoteOptions {
  limit?: number;
  tolerance?: RecallBody['tolerance'];
  minRelevance?: number;
  recencyWeight?: number;
  type?: string[];
  subtype?: string[];
  tag?: string[];
  context?: string;
  user?: string;
  after?: string;
  before?: string;
  detail?: RecallBody['detail_level'];
  associations: boolean;
  depth?: number;
  archived?: boolean;
  json?: boolean;
}

/** The request: the options given, nothing else (the server's defaults hold for the rest, and it checks ranges). */
function recallBody(query: string, o: RecallOptions): RecallBody {
  return {
    query,
    limit: o.limit,
    tolerance: o.tolerance,
    min_relevance: o.minRelevance,
    recency_weight: o.recencyWeight,
    types: o.type as RecallBody['types'],
    subtypes: o.subtype,
    tags: o.tag,
    context_id: o.context,
    user_id: o.user,
    created_after: o.after,
    created_before: o.before,
    detail_level: o.detail,
    include_associations: o.associations,
    traverse_depth: o.depth,
    include_archived: o.archived,
  };
}

/** One row per memory: its rank, relevance, type, content (wrapped to the terminal), tags and id. */
function renderTable(result: RecallResponse, columns: number): string {
  const fixed = { rank: 4, relevance: 11, type: 12, tags: 18, id: 24 };
  const content = Math.max(24, columns - Object.values(fixed).reduce((sum, width) => sum + width, 0) - 7);
  const table = new Table({
    head: ['#', 'relevance', 'type', 'memory', 'tags', 'id'],
    colWidths: [fixed.rank, fixed.relevance, fixed.type, content, fixed.tags, fixed.id],
    wordWrap: true,
    style: { head: [], border: [] },
  });
  result.memories.forEach((memory, i) => {
    table.push([i + 1, memory.relevance.toFixed(2), memory.type, memory.content, memory.tags.join(', '), memory.id]);
  });
  return table.toString();
}

async function recall(words: string[], options: RecallOptions): Promise<void> {
  const result = await connect(options).memories.recall(recallBody(words.join(' '), options));
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  if (result.memories.length > 0) process.stdout.write(`${renderTable(result, process.stdout.columns ?? 120)}\n`);
  const cached = result.cached ? ', cached' : '';
  process.stdout.write(
    `${result.memories.length === 0 ? 'nothing recalled' : `${result.memories.length} of ${result.total_count} memories`} (${Math.round(result.search_latency_ms)} ms${cached})\n`,
  );
}

export function recallCommand(program: Command): void {
  const command = program
    .command('recall')
    .summary('recall memories by meaning')
    .description('Recall memories by meaning from a running server: a table, or the whole answer with --json')
    .argument('<query...>', 'what to recall, in words')
    .option('-n, --limit <count>', 'at most this many memories (server default 10)', number)
    .option('--tolerance <level>', 'relevance floor: loose, moderate (default) or strict')
    .option('--min-relevance <score>', 'relevance floor, 0..1 (0: none)', number)
    .option('--recency-weight <weight>', '0..1: how much newer memories are preferred', number)
    .option('--type <type>', `only this memory type (${MEMORY_TYPES.join(', ')}); repeat for several`, repeatable)
    .option('--subtype <subtype>', 'only this subtype; repeat for several', repeatable)
    .option('--tag <tag>', 'only memories with this tag; repeat: every tag must be present', repeatable)
    .option('--context <id>', 'only this context')
    .option('--user <id>', 'the user the recall is for')
    .option('--after <time>', 'created at or after this ISO 8601 time')
    .option('--before <time>', 'created before this ISO 8601 time')
    .option('--detail <level>', 'abstract, overview or full (default): which tier of each memory is returned')
    .option('--no-associations', 'do not expand over associations')
    .option('--depth <hops>', 'association hops to expand over', number)
    .option('--archived', 'include archived memories')
    .option('--json', 'print the server’s answer as JSON')
    .action(recall);
  addWorkspaceOption(command);
  addConnectionOptions(command);
}
