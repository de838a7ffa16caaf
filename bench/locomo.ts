/**
 * Retrieval quality on the LoCoMo DEV conversations (../shared/bench/locomo-dev): `npm run bench:locomo`.
 *
 * Each conversation goes into its own workspace through the HTTP API: one memory per dialog turn, content
 * "<speaker>: <text>", metadata {dia_id, session, session_date}, one batch call per session sent with the
 * X-Session-ID of a memd session opened for it (so its turns carry that session_id, as a client recording a
 * conversation would). Background enrichment (facts, links) is waited for. Every question of categories 1-4 with evidence is then asked through
 * POST /v1/memories/recall with the server's defaults; recall@k counts a question when all of its evidence turns
 * are among the first k results (@5 and @10 from a limit-10 call, @25 from a limit-25 call); MRR is the mean
 * reciprocal rank of the first evidence turn in the limit-25 list.
 *
 * The server runs in this process with the default configuration (`local` embedder, no language model) unless
 * MEMD_* variables say otherwise. Options (environment):
 *   LOCOMO_DIR       where the conversations are (default ../shared/bench/locomo-dev, or ../../shared/… from a worktree)
 *   LOCOMO_DATA_DIR  keep the ingested database there and reuse it on the next run (default: a fresh temp dir)
 *   LOCOMO_TUNING    JSON merged over the recall tuning, to compare settings (the reported figures use none)
 *   LOCOMO_MISSES    print the questions whose evidence is not in the top 10
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { tunedBy, type TuningOverride } from '../src/core/recall/service.js';

interface Turn {
  dia_id: string;
  session: number;
  session_date: string;
  speaker: string;
  text: string;
}
interface Question {
  question: string;
  evidence: string[];
  category: number;
}
interface Conversation {
  conversation_id: string;
  sessions: Array<{ session: number; date: string }>;
  turns: Turn[];
  qa: Question[];
}

const CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
const FILES = ['conv-26.json', 'conv-30.json', 'conv-41.json'];

// The shared folder sits next to the main checkout, or two levels up from a worktree.
const locomoDir = resolve(process.env.LOCOMO_DIR ?? ['../shared/bench/locomo-dev', '../../shared/bench/locomo-dev'].find((d) => existsSync(d)) ?? '../shared/bench/locomo-dev');
const keepDir = process.env.LOCOMO_DATA_DIR;
const dataDir = keepDir ? resolve(keepDir) : mkdtempSync(join(tmpdir(), 'memd-locomo-'));
const tuningOverride = process.env.LOCOMO_TUNING ? (JSON.parse(process.env.LOCOMO_TUNING) as TuningOverride) : null;
const tuning = tuningOverride ? tunedBy(tuningOverride) : undefined;

const config = loadConfig({ ...process.env, MEMD_DATA_DIR: dataDir, MEMD_PORT: '0', MEMD_LOG_LEVEL: process.env.MEMD_LOG_LEVEL ?? 'warn' });
const app = await createApp(config, tuning ? { recallTuning: tuning } : {});
const url = await app.listen(0);
await app.ready();

async function call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** Ingests one conversation (or reuses it) and returns dia_id -> memory id. */
async function ingest(conversation: Conversation, actions: Map<string, number>): Promise<Map<string, string>> {
  const workspaceId = `locomo-${conversation.conversation_id}`;
  const mapFile = join(dataDir, `${workspaceId}.ids.json`);
  if (keepDir && existsSync(mapFile)) return new Map(Object.entries(JSON.parse(readFileSync(mapFile, 'utf8')) as Record<string, string>));
  await call('POST', '/v1/workspaces', { id: workspaceId, name: `LoCoMo ${conversation.conversation_id}` });
  const ids = new Map<string, string>();
  for (const { session } of conversation.sessions) {
    const turns = conversation.turns.filter((t) => t.session === session);
    if (turns.length === 0) continue;
    const operations = turns.map((t) => ({
      op: 'create',
      content: `${t.speaker}: ${t.text}`,
      metadata: { dia_id: t.dia_id, session: t.session, session_date: t.session_date },
    }));
    // Each sitting of the conversation is a session, as a client recording a conversation would open one.
    const { session: sitting } = await call<{ session: { id: string } }>('POST', '/v1/sessions', { workspace_id: workspaceId, ttl_seconds: 86_400 });
    const batch = await call<{ results: Array<{ status: string; memory_id?: string; action?: string; error?: string }> }>(
      'POST',
      '/v1/memories/batch',
      { workspace_id: workspaceId, operations },
      { 'x-session-id': sitting.id },
    );
    batch.results.forEach((result, i) => {
      if (result.status !== 'success' || !result.memory_id) throw new Error(`turn ${turns[i]!.dia_id} failed: ${result.error}`);
      ids.set(turns[i]!.dia_id, result.memory_id);
      actions.set(result.action ?? 'unknown', (actions.get(result.action ?? 'unknown') ?? 0) + 1);
    });
  }
  writeFileSync(mapFile, JSON.stringify(Object.fromEntries(ids)));
  return ids;
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
  at25: number;
  rr: number;
}
const tally = (): Tally => ({ n: 0, at5: 0, at10: 0, at25: 0, rr: 0 });

const allWithin = (wanted: Set<string>, ids: readonly string[], k: number): boolean => {
  const top = new Set(ids.slice(0, k));
  return [...wanted].every((id) => top.has(id));
};

const started = performance.now();
const actions = new Map<string, number>();
const byCategory = new Map<number, Tally>();
const overall = tally();
const latencies: number[] = [];
const misses: string[] = [];
let ingestMs = 0;

for (const file of FILES) {
  const conversation = JSON.parse(readFileSync(join(locomoDir, file), 'utf8')) as Conversation;
  const ingestStarted = performance.now();
  const ids = await ingest(conversation, actions);
  await enrichmentDone();
  ingestMs += performance.now() - ingestStarted;
  const workspaceId = `locomo-${conversation.conversation_id}`;
  for (const qa of conversation.qa) {
    if (!CATEGORIES[qa.category] || qa.evidence.length === 0) continue;
    const wanted = new Set(qa.evidence.map((d) => ids.get(d)).filter((id): id is string => id !== undefined));
    const ask = (limit: number) => call<{ memories: Array<{ id: string; content: string }>; search_latency_ms: number }>('POST', '/v1/memories/recall', { workspace_id: workspaceId, query: qa.question, limit });
    const ten = await ask(10);
    const deep = await ask(25);
    latencies.push(ten.search_latency_ms);
    const tenIds = ten.memories.map((m) => m.id);
    const deepIds = deep.memories.map((m) => m.id);
    const firstRank = deepIds.findIndex((id) => wanted.has(id));
    const t = byCategory.get(qa.category) ?? tally();
    byCategory.set(qa.category, t);
    for (const target of [t, overall]) {
      target.n++;
      if (allWithin(wanted, tenIds, 5)) target.at5++;
      if (allWithin(wanted, tenIds, 10)) target.at10++;
      if (allWithin(wanted, deepIds, 25)) target.at25++;
      target.rr += firstRank >= 0 ? 1 / (firstRank + 1) : 0;
    }
    if (process.env.LOCOMO_MISSES && !allWithin(wanted, tenIds, 10)) {
      const missing = qa.evidence.filter((d) => !tenIds.includes(ids.get(d)!));
      misses.push(`[${conversation.conversation_id} c${qa.category}] ${qa.question}  missing ${missing.join(',')} (deep ranks ${missing.map((d) => deepIds.indexOf(ids.get(d)!) + 1).join(',')})`);
    }
  }
}

const pct = (x: number, n: number): string => (n === 0 ? '-' : (x / n).toFixed(3));
const line = (name: string, t: Tally): string =>
  `${name.padEnd(12)} ${String(t.n).padStart(4)}  ${pct(t.at5, t.n)}  ${pct(t.at10, t.n)}  ${pct(t.at25, t.n)}  ${pct(t.rr, t.n)}`;
latencies.sort((a, b) => a - b);
const q = (p: number): string => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);

console.log(`machine: ${cpus()[0]?.model ?? 'unknown cpu'}, ${availableParallelism()} cores, node ${process.version}`);
console.log(`embedder ${app.services.embedder.name}/${app.services.embedder.model}, llm ${app.services.llm ? app.services.llm.model : 'none'}, storage ${config.storage.kind}${tuning ? `, tuning ${JSON.stringify(tuningOverride)}` : ''}`);
console.log(`ingest actions: ${[...actions.entries()].map(([a, n]) => `${a} ${n}`).join(', ') || '(reused data)'}; ingest + enrichment ${(ingestMs / 1000).toFixed(1)} s`);
console.log('category        n   R@5    R@10   R@25   MRR');
for (const category of [1, 2, 3, 4]) {
  const t = byCategory.get(category);
  if (t) console.log(line(CATEGORIES[category]!, t));
}
console.log(line('overall', overall));
console.log(`recall search_latency_ms (limit 10): p50 ${q(0.5)} p95 ${q(0.95)} p99 ${q(0.99)}; total ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (misses.length) console.log(`\nmisses at 10:\n${misses.join('\n')}`);

await app.close();
if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
