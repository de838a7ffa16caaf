/**
 * Retrieval quality on the LoCoMo DEV conversations (../shared/bench/locomo-dev): `npm run bench:locomo`.
 *
 * Each conversation goes into its own workspace through the HTTP API: one memory per dialog turn, content
 * "<speaker>: <text>", metadata {dia_id, session, session_date}, one `POST /v1/memories/batch` per sitting (or a
 * call per turn). Three ways of writing and asking, each reported on its own:
 *   - plain: no session, and the questions are asked at once: the task runner is held while the turns are
 *     written and asked about, so nothing is enriched yet (no facts, no links; the worst case of asking "right
 *     after the write"). Then the runner goes on, enrichment is waited for and the questions are asked again
 *     ("plain, enriched"): the difference is what recall owes to background enrichment.
 *   - session: each batch sent with the X-Session-ID of a memd session opened for its sitting (the turns carry
 *     that session_id), enrichment waited for, then the questions.
 *   - turns: one `POST /v1/memories` per turn, in order, no session, as a chat client writes each message as it
 *     comes; asked at once with the task runner held, as plain.
 * Every question of categories 1-4 with evidence is asked through POST /v1/memories/recall with the server's
 * defaults, at limit 10 and at limit 25. recall@k counts a question when all of its evidence turns are among the
 * first k results (@5 and @10 from the limit-10 answer, @25 from the limit-25 one); "R@10 of 25" reads the first
 * ten of the limit-25 answer, and "differ" counts the questions whose two top tens are not the same list. MRR is the
 * mean reciprocal rank of the first evidence turn in the limit-25 list. A plain BM25 baseline (SQLite FTS5 in
 * memory, the question's words OR-ed, Porter stems as memd's index has) is printed beside them.
 *
 * Arguments (after `--`):
 *   --plain / --session / --turns  only those modes (default: all three)
 *   --ablation           R@10 per conversation with each arm and ranking feature switched off (src/core/recall/README.md)
 *   --loo                leave-one-conversation-out: for each conversation, the setting of a grid that is best on the
 *                        other two, measured on it; and which changes help each conversation alone
 * The variants of --ablation and --loo are asked through the core recall service in this process (same storage,
 * a RecallService per setting), at limit 10; the default setting is asked that way too, as the reference row.
 *
 * The server runs in this process with the default configuration (`local` embedder, no language model) unless
 * MEMD_* variables say otherwise. Options (environment):
 *   LOCOMO_DIR       where the conversations are (default ../shared/bench/locomo-dev, or ../../shared/… from a worktree)
 *   LOCOMO_DATA_DIR  keep the ingested database there and reuse it on the next run (default: a fresh temp dir);
 *                    a reused plain ingest is enriched already, so its "at once" figures are not measured (its
 *                    variants are compared after enrichment instead)
 *   LOCOMO_TUNING    JSON merged over the recall tuning, to compare settings (the reported figures use none)
 *   LOCOMO_MISSES    print the questions whose evidence is not in the top 10
 *   LOCOMO_VARIANTS  JSON list of {name, tuning?, request?} compared with the default as --ablation's table is,
 *                    with the leave-one-out over them as --loo prints it
 *   LOCOMO_CASE      `lower`: every question asked in lower case, as many people type into a chat box; `upper`:
 *                    in capitals (the conversations are written as they were)
 *   LOCOMO_SLIPS     one typing slip in each question's longest lower-case word (a letter left out, doubled or
 *                    swapped)
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { DEFAULT_TUNING, RecallService, tunedBy, type TuningOverride } from '../src/core/recall/service.js';
import type { RecallRequest } from '../src/core/recall/types.js';
import { loadConversations, type Conversation, type Question } from './locomo-data.js';

type Mode = 'plain' | 'session' | 'turns';
const MODES: readonly Mode[] = ['plain', 'session', 'turns'];

const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const args = new Set(process.argv.slice(2));
const asked = MODES.filter((mode) => args.has(`--${mode}`));
const modes: readonly Mode[] = asked.length > 0 ? asked : MODES;

const keepDir = process.env.LOCOMO_DATA_DIR;
const dataDir = keepDir ? resolve(keepDir) : mkdtempSync(join(tmpdir(), 'memd-locomo-'));
const tuningOverride = process.env.LOCOMO_TUNING ? (JSON.parse(process.env.LOCOMO_TUNING) as TuningOverride) : null;
const tuning = tuningOverride ? tunedBy(tuningOverride) : undefined;

const config = loadConfig({
  ...process.env,
  MEMD_DATA_DIR: dataDir,
  MEMD_PORT: '0',
  MEMD_LOG_LEVEL: process.env.MEMD_LOG_LEVEL ?? 'warn',
});
const app = await createApp(config, tuning ? { recallTuning: tuning } : {});
const url = await app.listen(0);
await app.ready();
const conversations = loadConversations();

async function call<T = any>(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const workspaceOf = (mode: Mode, conversation: Conversation): string =>
  `locomo-${mode}-${conversation.conversation_id}`;

/** Ingests one conversation (or reuses it) and returns dia_id -> memory id, and whether it was written now. */
async function ingest(
  mode: Mode,
  conversation: Conversation,
  actions: Map<string, number>,
): Promise<{ ids: Map<string, string>; fresh: boolean }> {
  const workspaceId = workspaceOf(mode, conversation);
  const mapFile = join(dataDir, `${workspaceId}.ids.json`);
  if (keepDir && existsSync(mapFile))
    return {
      ids: new Map(Object.entries(JSON.parse(readFileSync(mapFile, 'utf8')) as Record<string, string>)),
      fresh: false,
    };
  await call('POST', '/v1/workspaces', { id: workspaceId, name: `LoCoMo ${conversation.conversation_id} (${mode})` });
  const ids = new Map<string, string>();
  for (const { session } of conversation.sessions) {
    const turns = conversation.turns.filter((t) => t.session === session);
    if (turns.length === 0) continue;
    const operations = turns.map((t) => ({
      op: 'create',
      content: `${t.speaker}: ${t.text}`,
      metadata: { dia_id: t.dia_id, session: t.session, session_date: t.session_date },
    }));
    const headers: Record<string, string> = {};
    if (mode === 'session') {
      // Each sitting of the conversation is a session, as a client recording a conversation would open one.
      const { session: sitting } = await call<{ session: { id: string } }>('POST', '/v1/sessions', {
        workspace_id: workspaceId,
        ttl_seconds: 86_400,
      });
      headers['x-session-id'] = sitting.id;
    }
    const results =
      mode === 'turns'
        ? await oneByOne(workspaceId, operations)
        : (
            await call<{ results: WriteResult[] }>(
              'POST',
              '/v1/memories/batch',
              { workspace_id: workspaceId, operations },
              headers,
            )
          ).results;
    results.forEach((result, i) => {
      if (result.status !== 'success' || !result.memory_id)
        throw new Error(`turn ${turns[i]!.dia_id} failed: ${result.error}`);
      ids.set(turns[i]!.dia_id, result.memory_id);
      actions.set(result.action ?? 'unknown', (actions.get(result.action ?? 'unknown') ?? 0) + 1);
    });
  }
  writeFileSync(mapFile, JSON.stringify(Object.fromEntries(ids)));
  return { ids, fresh: true };
}

interface WriteResult {
  status: string;
  memory_id?: string;
  action?: string;
  error?: string;
}

/** Each operation through its own `POST /v1/memories`, in order, answered as a batch's results are. */
async function oneByOne(
  workspaceId: string,
  operations: ReadonlyArray<{ content: string; metadata: Record<string, unknown> }>,
): Promise<WriteResult[]> {
  const results: WriteResult[] = [];
  for (const { content, metadata } of operations) {
    const { memory, action } = await call<{ memory: { id: string }; action: string }>('POST', '/v1/memories', {
      workspace_id: workspaceId,
      content,
      metadata,
    });
    results.push({ status: 'success', memory_id: memory.id, action });
  }
  return results;
}

/** Background enrichment (facts, links) is part of ingestion: wait until the queue is empty. */
async function enrichmentDone(): Promise<void> {
  for (;;) {
    const counts = await app.services.storage.tasks.counts(new Date().toISOString());
    if (counts.pending + counts.running === 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Tally {
  n: number;
  at5: number;
  at10: number;
  at10of25: number;
  at25: number;
  rr: number;
  differ: number;
}
const tally = (): Tally => ({ n: 0, at5: 0, at10: 0, at10of25: 0, at25: 0, rr: 0, differ: 0 });

const allWithin = (wanted: Set<string>, ids: readonly string[], k: number): boolean => {
  const top = new Set(ids.slice(0, k));
  return [...wanted].every((id) => top.has(id));
};

/** The questions the recall metrics count: categories 1-4, with evidence. */
const questionCase = process.env.LOCOMO_CASE;
const typed = (question: string): string =>
  questionCase === 'lower' ? question.toLowerCase() : questionCase === 'upper' ? question.toUpperCase() : question;
/**
 * LOCOMO_SLIPS: one typing slip in each question, in its longest word of five letters or more written in lower case
 * (not a name): the middle letter left out, doubled, or swapped with the next, by turns. The conversations' own
 * questions hold three slips in 383 ("educaton"); people typing to an agent make more.
 */
const slips = Boolean(process.env.LOCOMO_SLIPS);
function slipped(question: string, n: number): string {
  const word = [...question.matchAll(/\b[a-z]{5,}\b/g)].sort((a, b) => b[0].length - a[0].length)[0];
  if (!word) return question;
  const w = word[0];
  const at = Math.floor(w.length / 2);
  const typo = [
    w.slice(0, at) + w.slice(at + 1),
    w.slice(0, at + 1) + w.slice(at),
    w.slice(0, at) + w[at + 1]! + w[at]! + w.slice(at + 2),
  ][n % 3]!;
  return question.slice(0, word.index) + typo + question.slice(word.index! + w.length);
}
const askable = (conversation: Conversation): Question[] =>
  conversation.qa
    .filter((qa) => CATEGORIES[qa.category] && qa.evidence.length > 0)
    .map((qa, n) => ({ ...qa, question: slips ? slipped(typed(qa.question), n) : typed(qa.question) }));
const wantedOf = (qa: Question, ids: ReadonlyMap<string, string>): Set<string> =>
  new Set(qa.evidence.map((d) => ids.get(d)).filter((id): id is string => id !== undefined));

interface Measured {
  byCategory: Map<number, Tally>;
  byConversation: Map<string, Tally>;
  overall: Tally;
  latencies: number[];
  misses: string[];
}

/** Every question through the HTTP API at limit 10 and 25. */
async function measure(
  mode: Mode,
  ingested: ReadonlyArray<{ conversation: Conversation; ids: Map<string, string> }>,
): Promise<Measured> {
  const measured: Measured = {
    byCategory: new Map(),
    byConversation: new Map(),
    overall: tally(),
    latencies: [],
    misses: [],
  };
  for (const { conversation, ids } of ingested) {
    const workspaceId = workspaceOf(mode, conversation);
    const perConversation = tally();
    measured.byConversation.set(conversation.conversation_id, perConversation);
    for (const qa of askable(conversation)) {
      const wanted = wantedOf(qa, ids);
      const ask = (limit: number) =>
        call<{ memories: Array<{ id: string }>; search_latency_ms: number }>('POST', '/v1/memories/recall', {
          workspace_id: workspaceId,
          query: qa.question,
          limit,
        });
      const ten = await ask(10);
      const deep = await ask(25);
      measured.latencies.push(ten.search_latency_ms);
      const tenIds = ten.memories.map((m) => m.id);
      const deepIds = deep.memories.map((m) => m.id);
      const firstRank = deepIds.findIndex((id) => wanted.has(id));
      const t = measured.byCategory.get(qa.category) ?? tally();
      measured.byCategory.set(qa.category, t);
      for (const target of [t, perConversation, measured.overall]) {
        target.n++;
        if (allWithin(wanted, tenIds, 5)) target.at5++;
        if (allWithin(wanted, tenIds, 10)) target.at10++;
        if (allWithin(wanted, deepIds, 10)) target.at10of25++;
        if (allWithin(wanted, deepIds, 25)) target.at25++;
        if (deepIds.slice(0, 10).join() !== tenIds.join()) target.differ++;
        target.rr += firstRank >= 0 ? 1 / (firstRank + 1) : 0;
      }
      if (process.env.LOCOMO_MISSES && !allWithin(wanted, tenIds, 10)) {
        const missing = qa.evidence.filter((d) => !tenIds.includes(ids.get(d)!));
        measured.misses.push(
          `[${mode} ${conversation.conversation_id} c${qa.category}] ${qa.question}  missing ${missing.join(',')} (deep ranks ${missing.map((d) => deepIds.indexOf(ids.get(d)!) + 1).join(',')})`,
        );
      }
    }
  }
  return measured;
}

const pct = (x: number, n: number): string => (n === 0 ? '  -  ' : (x / n).toFixed(3));

function report(title: string, m: Measured): void {
  const line = (name: string, t: Tally): string =>
    `${name.padEnd(12)} ${String(t.n).padStart(4)}  ${pct(t.at5, t.n)}  ${pct(t.at10, t.n)}  ${pct(t.at10of25, t.n)}     ${pct(t.at25, t.n)}  ${pct(t.rr, t.n)}  ${String(t.differ).padStart(4)}`;
  const sorted = [...m.latencies].sort((a, b) => a - b);
  const q = (p: number): string => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  console.log(`\n== ${title}`);
  console.log('             n     R@5    R@10   R@10of25  R@25   MRR    differ');
  for (const category of [1, 2, 3, 4]) {
    const t = m.byCategory.get(category);
    if (t) console.log(line(CATEGORIES[category]!, t));
  }
  for (const [id, t] of m.byConversation) console.log(line(`conv ${id}`, t));
  console.log(line('overall', m.overall));
  console.log(`recall search_latency_ms (limit 10): p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)}`);
  if (m.misses.length) console.log(`misses at 10:\n${m.misses.join('\n')}`);
}

/** Plain BM25 for scale: FTS5 over the turns' contents, the question's words OR-ed; R@10 per conversation. */
function bm25Baseline(): Map<string, Tally> {
  const result = new Map<string, Tally>();
  const db = new Database(':memory:');
  for (const conversation of conversations) {
    db.exec(
      'DROP TABLE IF EXISTS turns; CREATE VIRTUAL TABLE turns USING fts5(dia_id UNINDEXED, content, tokenize="porter unicode61")',
    );
    const insert = db.prepare('INSERT INTO turns (dia_id, content) VALUES (?, ?)');
    for (const t of conversation.turns) insert.run(t.dia_id, `${t.speaker}: ${t.text}`);
    const search = db.prepare('SELECT dia_id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT 25');
    const t = tally();
    for (const qa of askable(conversation)) {
      const words = [...new Set(qa.question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
      const found = words.length
        ? (search.all(words.map((w) => `"${w}"`).join(' OR ')) as Array<{ dia_id: string }>).map((r) => r.dia_id)
        : [];
      const wanted = new Set(qa.evidence);
      t.n++;
      if (allWithin(wanted, found, 5)) t.at5++;
      if (allWithin(wanted, found, 10)) t.at10++;
      if (allWithin(wanted, found, 25)) t.at25++;
      const first = found.findIndex((d) => wanted.has(d));
      t.rr += first >= 0 ? 1 / (first + 1) : 0;
    }
    result.set(conversation.conversation_id, t);
  }
  db.close();
  return result;
}

/** A setting to compare: a tuning override and request options over the defaults. */
interface Variant {
  name: string;
  tuning?: TuningOverride;
  request?: Partial<RecallRequest>;
}

const off = (feature: string): Variant => ({ name: `-${feature}`, tuning: { ranking: { [feature]: 0 } } });
const ABLATION: Variant[] = [
  { name: 'default' },
  { name: '-arm vector', tuning: { disabledArms: ['vector'] } },
  { name: '-arm fact', tuning: { disabledArms: ['fact'] } },
  { name: '-arm keyword', tuning: { disabledArms: ['keyword'] } },
  { name: '-arm entity', tuning: { disabledArms: ['entity'] } },
  { name: '-arm temporal', tuning: { disabledArms: ['temporal'] } },
  { name: '-arm graph', tuning: { disabledArms: ['graph'] } },
  {
    name: '-ranking (RRF only)',
    tuning: {
      ranking: {
        keyword: 0,
        similarity: 0,
        topical: 0,
        fact: 0,
        coverage: 0,
        synonym: 0,
        complete: 0,
        keywordContext: 0,
        about: 0,
        inWindow: 0,
      },
    },
  },
  ...[
    'keyword',
    'similarity',
    'topical',
    'fact',
    'coverage',
    'synonym',
    'complete',
    'keywordContext',
    'fused',
    'about',
    'inWindow',
  ].map(off),
  { name: '-topical scan (entity arm)', tuning: { topicalScan: 0 } },
  { name: '-topical (feature and scan)', tuning: { topicalScan: 0, ranking: { topical: 0 } } },
  { name: '-neighbour spread', tuning: { neighbourSeeds: 0 } },
  { name: '-less before a question', tuning: { beforeQuestion: 1 } },
  { name: '-conversation (spread+ctx)', tuning: { neighbourSeeds: 0, ranking: { keywordContext: 0 } } },
  { name: '-backlinks', tuning: { backlinks: false } },
  { name: '-expansion', request: { traverseDepth: 0 } },
];

/** The grid of --loo: each ranking weight halved and doubled, and the conversation knobs. */
const scaled = (feature: string, factor: number): Variant => ({
  name: `${feature} x${factor}`,
  tuning: { ranking: { [feature]: (DEFAULT_RANKING as Record<string, number>)[feature]! * factor } },
});
const DEFAULT_RANKING = DEFAULT_TUNING.ranking;
const GRID: Variant[] = [
  { name: 'default' },
  ...Object.keys(DEFAULT_RANKING).flatMap((feature) => [0, 0.5, 2].map((factor) => scaled(feature, factor))),
  { name: 'neighbourDecay [0.9,0.9]', tuning: { neighbourDecay: [0.9, 0.9] } },
  { name: 'neighbourDecay [0.7,0.6]', tuning: { neighbourDecay: [0.7, 0.6] } },
  { name: 'neighbourDecay [0.8]', tuning: { neighbourDecay: [0.8] } },
  { name: 'beforeQuestion 1', tuning: { beforeQuestion: 1 } },
  { name: 'beforeQuestion 0.25', tuning: { beforeQuestion: 0.25 } },
  { name: 'neighbourSeeds 5', tuning: { neighbourSeeds: 5 } },
  { name: 'neighbourSeeds 12', tuning: { neighbourSeeds: 12 } },
  { name: 'graph weight 1', tuning: { weights: { graph: 1 } } },
  { name: 'minDepth 30', tuning: { minDepth: 30 } },
];

/** R@10 (limit 10) and R@25 (limit 25) per conversation of each variant, asked through a RecallService of its own. */
async function evaluate(
  mode: Mode,
  ingested: ReadonlyArray<{ conversation: Conversation; ids: Map<string, string> }>,
  variants: readonly Variant[],
): Promise<Map<string, Map<string, Tally>>> {
  const s = app.services;
  const results = new Map<string, Map<string, Tally>>();
  for (const variant of variants) {
    const recall = new RecallService({
      storage: s.storage,
      queryEmbedder: s.queryEmbedder,
      clock: s.clock,
      llm: null,
      reranker: null,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      cache: { maxEntries: 0, ttlMs: 0 },
      tuning: tunedBy({
        ...tuningOverride,
        ...variant.tuning,
        ranking: { ...tuningOverride?.ranking, ...variant.tuning?.ranking },
        weights: { ...tuningOverride?.weights, ...variant.tuning?.weights },
      }),
    });
    const perConversation = new Map<string, Tally>();
    for (const { conversation, ids } of ingested) {
      const t = tally();
      for (const qa of askable(conversation)) {
        const ask = (limit: number) =>
          recall
            .recall({ workspaceId: workspaceOf(mode, conversation), query: qa.question, limit, ...variant.request })
            .then((a) => a.memories.map((m) => m.id));
        const wanted = wantedOf(qa, ids);
        const [ten, deep] = [await ask(10), await ask(25)];
        t.n++;
        if (allWithin(wanted, ten, 10)) t.at10++;
        if (allWithin(wanted, deep, 25)) t.at25++;
        if (deep.slice(0, 10).join() !== ten.join()) t.differ++;
      }
      perConversation.set(conversation.conversation_id, t);
    }
    await recall.close();
    results.set(variant.name, perConversation);
  }
  return results;
}

const conversationIds = conversations.map((c) => c.conversation_id);
const total = (row: ReadonlyMap<string, Tally>, only: readonly string[]): { hits: number; n: number } =>
  only.reduce((sum, id) => ({ hits: sum.hits + row.get(id)!.at10, n: sum.n + row.get(id)!.n }), { hits: 0, n: 0 });

/** R@10 per conversation and its change from the default, for every variant; overall R@25 and top-ten differences. */
function variantTable(title: string, results: Map<string, Map<string, Tally>>): void {
  const base = results.get('default')!;
  console.log(`\n== ${title}: R@10 per conversation (change from default)`);
  console.log(
    `${'variant'.padEnd(28)} ${conversationIds.map((id) => `conv ${id}`.padEnd(16)).join('')}${'overall'.padEnd(16)}R@25   differ helps all`,
  );
  for (const [name, row] of results) {
    const cells = conversationIds.map((id) => {
      const t = row.get(id)!;
      const delta = (t.at10 - base.get(id)!.at10) / t.n;
      return `${pct(t.at10, t.n)} (${delta >= 0 ? '+' : ''}${delta.toFixed(3)})`.padEnd(16);
    });
    const all = total(row, conversationIds);
    const allBase = total(base, conversationIds);
    const delta = (all.hits - allBase.hits) / all.n;
    const deep = [...row.values()].reduce((sum, t) => sum + t.at25, 0);
    const differ = [...row.values()].reduce((sum, t) => sum + t.differ, 0);
    const helpsAll = name !== 'default' && conversationIds.every((id) => row.get(id)!.at10 > base.get(id)!.at10);
    console.log(
      `${name.padEnd(28)} ${cells.join('')}${`${pct(all.hits, all.n)} (${delta >= 0 ? '+' : ''}${delta.toFixed(3)})`.padEnd(16)}${pct(deep, all.n)}  ${String(differ).padStart(5)}  ${helpsAll ? 'yes' : ''}`,
    );
  }
}

/** Leave one conversation out: the variant best on the other two (ties: the default), measured on it. */
function leaveOneOut(title: string, results: Map<string, Map<string, Tally>>): void {
  const base = results.get('default')!;
  console.log(`\n== ${title}: leave-one-conversation-out (pick on two, measure on the third)`);
  console.log(`${'held out'.padEnd(10)} ${'picked on the other two'.padEnd(28)} ${'R@10 held out'.padEnd(14)} default`);
  let hits = 0;
  let n = 0;
  for (const heldOut of conversationIds) {
    const others = conversationIds.filter((id) => id !== heldOut);
    let best = 'default';
    for (const [name, row] of results)
      if (total(row, others).hits > total(results.get(best)!, others).hits) best = name;
    const t = results.get(best)!.get(heldOut)!;
    hits += t.at10;
    n += t.n;
    console.log(
      `${`conv ${heldOut}`.padEnd(10)} ${best.padEnd(28)} ${pct(t.at10, t.n).padEnd(14)} ${pct(base.get(heldOut)!.at10, t.n)}`,
    );
  }
  const all = total(base, conversationIds);
  console.log(`${'overall'.padEnd(10)} ${''.padEnd(28)} ${pct(hits, n).padEnd(14)} ${pct(all.hits, all.n)}`);
}

const started = performance.now();
console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`);
console.log(
  `embedder ${app.services.embedder.name}/${app.services.embedder.model}, llm ${app.services.llm ? app.services.llm.model : 'none'}, storage ${config.storage.kind}${tuning ? `, tuning ${JSON.stringify(tuningOverride)}` : ''}`,
);

async function variants(
  mode: Mode,
  stage: string,
  ingested: ReadonlyArray<{ conversation: Conversation; ids: Map<string, string> }>,
): Promise<void> {
  if (process.env.LOCOMO_VARIANTS) {
    const results = await evaluate(mode, ingested, [
      { name: 'default' },
      ...(JSON.parse(process.env.LOCOMO_VARIANTS) as Variant[]),
    ]);
    variantTable(`${stage}: LOCOMO_VARIANTS`, results);
    leaveOneOut(`${stage}, LOCOMO_VARIANTS`, results);
  }
  if (args.has('--ablation')) variantTable(`${stage}: ablation`, await evaluate(mode, ingested, ABLATION));
  if (args.has('--loo')) {
    const results = await evaluate(mode, ingested, GRID);
    variantTable(`${stage}: grid`, results);
    leaveOneOut(stage, results);
  }
}

/** What each mode is called in the report, asked at once (before enrichment) and after it. */
const TITLES: Record<Mode, { atOnce?: string; enriched: string }> = {
  plain: {
    atOnce: 'plain: no session, asked at once (nothing enriched)',
    enriched: 'plain, enriched: no session, asked after enrichment',
  },
  turns: {
    atOnce: 'turns: a call per turn, no session, asked at once (nothing enriched)',
    enriched: 'turns, enriched: a call per turn, no session, asked after enrichment',
  },
  session: { enriched: 'session: a session per sitting, asked after enrichment' },
};

for (const mode of modes) {
  const actions = new Map<string, number>();
  const ingestStarted = performance.now();
  const { atOnce, enriched } = TITLES[mode];
  // Asked at once: nothing is enriched while the turns are written and asked about.
  if (atOnce) await app.services.tasks.stop();
  const ingested: Array<{ conversation: Conversation; ids: Map<string, string> }> = [];
  let fresh = false;
  for (const conversation of conversations) {
    const written = await ingest(mode, conversation, actions);
    fresh ||= written.fresh;
    ingested.push({ conversation, ids: written.ids });
  }
  const written = `ingest actions: ${[...actions.entries()].map(([a, n]) => `${a} ${n}`).join(', ') || '(reused data)'}`;
  if (atOnce && fresh) {
    console.log(`\n${written}; written in ${((performance.now() - ingestStarted) / 1000).toFixed(1)} s`);
    report(atOnce, await measure(mode, ingested));
    await variants(mode, `${mode}, at once`, ingested);
  }
  if (atOnce) app.services.tasks.start();
  const enrichStarted = performance.now();
  await enrichmentDone();
  console.log(`\n${written}; enrichment waited ${((performance.now() - enrichStarted) / 1000).toFixed(1)} s`);
  report(enriched, await measure(mode, ingested));
  if (mode === 'session') await variants(mode, 'session', ingested);
  // A reused ingest asked at once has no "at once" stage: its settings are compared after enrichment.
  if (atOnce && !fresh) await variants(mode, `${mode}, enriched`, ingested);
}

const bm25 = bm25Baseline();
console.log('\n== plain BM25 (FTS5 with Porter stems, words OR-ed)');
for (const [id, t] of bm25)
  console.log(
    `conv ${id.padEnd(8)} ${String(t.n).padStart(4)}  R@5 ${pct(t.at5, t.n)}  R@10 ${pct(t.at10, t.n)}  R@25 ${pct(t.at25, t.n)}  MRR ${pct(t.rr, t.n)}`,
  );
const bmAll = tally();
for (const t of bm25.values()) {
  bmAll.n += t.n;
  bmAll.at5 += t.at5;
  bmAll.at10 += t.at10;
  bmAll.at25 += t.at25;
  bmAll.rr += t.rr;
}
console.log(
  `overall      ${String(bmAll.n).padStart(4)}  R@5 ${pct(bmAll.at5, bmAll.n)}  R@10 ${pct(bmAll.at10, bmAll.n)}  R@25 ${pct(bmAll.at25, bmAll.n)}  MRR ${pct(bmAll.rr, bmAll.n)}`,
);
console.log(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s`);

await app.close();
if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
