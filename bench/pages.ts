/**
 * Page search quality: multi-vector (one vector per passage, a page scored by its best passage) against the single
 * vector per page it replaced, on multi-page documents built from the LoCoMo DEV conversations: `npm run bench:pages`.
 *
 * Each conversation becomes one text document, uploaded through the HTTP API: a line "Session N (date)" before each
 * session and one paragraph "<speaker>: <text>" per dialog turn, cut by memd into pages of 3,000 characters at
 * paragraph boundaries (the default page_size), so a turn sits on exactly one page. Every question of categories 1-4
 * with evidence is asked over the whole workspace (all three documents); a question counts at k when a page holding
 * one of its evidence turns is among the first k pages. MRR is the mean reciprocal rank of the first such page.
 *
 * - multi-vector: POST /v1/documents/search as served (max-sim over passages of PASSAGE_CHARS).
 * - single-vector: what page search did before: one embedding of the page's first 8,000 characters, pages ranked by
 *   cosine similarity to the query, computed here with the server's embedder.
 * - variants, computed here from the same pages: passages of 250 and 1,000 characters (max-sim), and the mean of
 *   the best two passages instead of the best one.
 *
 * The server runs in this process with the default configuration (`local` embedder) unless MEMD_* variables say
 * otherwise (MEMD_STORAGE=postgres with MEMD_DATABASE_URL measures the Postgres backend).
 *   LOCOMO_DIR  where the conversations are (default ../shared/bench/locomo-dev, or ../../shared/… from a worktree)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { packText } from '../src/core/documents/chunking.js';
import { PASSAGE_CHARS } from '../src/core/documents/passages.js';
import { normaliseContent } from '../src/core/text/index.js';
import { loadConversations, type Conversation, type Turn } from './locomo-data.js';
import { machineLine, percentile } from './machine.js';

interface Page {
  id: string;
  document_id: string;
  page_no: number;
  transcript: string;
}

const KS = [1, 3, 5, 10] as const;
const dataDir = mkdtempSync(join(tmpdir(), 'memd-pages-'));
const config = loadConfig({
  ...process.env,
  MEMD_DATA_DIR: dataDir,
  MEMD_PORT: '0',
  MEMD_LOG_LEVEL: process.env.MEMD_LOG_LEVEL ?? 'warn',
});
const app = await createApp(config);
const url = await app.listen(0);
await app.ready();

async function call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const turnLine = (turn: Turn) => `${turn.speaker}: ${turn.text}`;

function documentText(conversation: Conversation): string {
  const parts: string[] = [];
  let session = -1;
  for (const turn of conversation.turns) {
    if (turn.session !== session) {
      session = turn.session;
      parts.push(`Session ${session} (${turn.session_date})`);
    }
    parts.push(turnLine(turn));
  }
  return parts.join('\n\n');
}

// Ingest: one document per conversation, then wait for every job.
const conversations = loadConversations();
const ingestStart = performance.now();
const jobs: string[] = [];
for (const conversation of conversations) {
  const form = new FormData();
  form.append(
    'file',
    new Blob([documentText(conversation)], { type: 'text/plain' }),
    `locomo-${conversation.conversation_id}.txt`,
  );
  const response = await fetch(`${url}/v1/documents`, { method: 'POST', body: form });
  if (response.status !== 202) throw new Error(`upload: ${response.status} ${await response.text()}`);
  jobs.push(((await response.json()) as { job: { id: string } }).job.id);
}
const documentIds: string[] = [];
for (const jobId of jobs) {
  for (;;) {
    const { job } = await call<{ job: { status: string; document_id: string; error: unknown } }>(
      'GET',
      `/v1/documents/jobs/${jobId}`,
    );
    if (job.status === 'completed') {
      documentIds.push(job.document_id);
      break;
    }
    if (job.status !== 'queued' && job.status !== 'processing')
      throw new Error(`job ${jobId}: ${job.status} ${JSON.stringify(job.error)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
const ingestMs = performance.now() - ingestStart;
// The chunks' memories are enriched in the background; that work is not measured here.
await app.services.tasks.stop();

const pagesByDocument = await Promise.all(
  documentIds.map(async (id) => (await call<{ pages: Page[] }>('GET', `/v1/documents/${id}/pages?limit=1000`)).pages),
);
const pages = pagesByDocument.flat();
const passageCount = pages.reduce((sum, page) => sum + packText(page.transcript, PASSAGE_CHARS).length, 0);

/** The pages of a conversation's document that hold the question's evidence turns. */
function evidencePages(
  conversation: Conversation,
  documentPages: readonly Page[],
  evidence: readonly string[],
): Set<string> {
  const lines = evidence
    .map((id) => conversation.turns.find((t) => t.dia_id === id))
    .filter((t): t is Turn => t !== undefined)
    .map(turnLine);
  return new Set(
    documentPages.filter((page) => lines.some((line) => page.transcript.includes(line))).map((page) => page.id),
  );
}

const questions = conversations.flatMap((conversation, c) =>
  conversation.qa
    .filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0)
    .map((q) => ({ question: q.question, relevant: evidencePages(conversation, pagesByDocument[c]!, q.evidence) }))
    .filter((q) => q.relevant.size > 0),
);

// Vectors for the rankings computed here, with the server's own embedder.
const embedder = app.services.embedder;
const embed = async (texts: string[]) => embedder.embed(texts.map(normaliseContent));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const queryVectors = await embed(questions.map((q) => q.question));
const pageVectors = await embed(pages.map((p) => p.transcript.slice(0, 8_000)));
async function passageVectors(size: number): Promise<Float32Array[][]> {
  const texts = pages.map((p) => packText(p.transcript, size));
  const flat = await embed(texts.flat());
  let next = 0;
  return texts.map((list) => list.map(() => flat[next++]!));
}

type Ranker = (q: number) => Promise<string[]>;
const byScore = (scores: number[]) =>
  scores
    .map((score, i) => ({ id: pages[i]!.id, score }))
    .sort((a, b) => b.score - a.score)
    .map((s) => s.id);
const single: Ranker = async (q) => byScore(pageVectors.map((v) => dot(v, queryVectors[q]!)));
const maxSim =
  (vectors: Float32Array[][]): Ranker =>
  async (q) =>
    byScore(vectors.map((list) => Math.max(...list.map((v) => dot(v, queryVectors[q]!)))));
const topTwoMean =
  (vectors: Float32Array[][]): Ranker =>
  async (q) =>
    byScore(
      vectors.map((list) => {
        const sims = list.map((v) => dot(v, queryVectors[q]!)).sort((a, b) => b - a);
        return sims.length > 1 ? (sims[0]! + sims[1]!) / 2 : sims[0]!;
      }),
    );
const latencies: number[] = [];
const served: Ranker = async (q) => {
  const started = performance.now();
  const found = await call<{ pages: Page[] }>('POST', '/v1/documents/search', {
    query: questions[q]!.question,
    limit: 10,
  });
  latencies.push(performance.now() - started);
  return found.pages.map((p) => p.id);
};

async function score(ranker: Ranker) {
  const hits = Object.fromEntries(KS.map((k) => [k, 0])) as Record<number, number>;
  let reciprocal = 0;
  for (let q = 0; q < questions.length; q++) {
    const ranking = await ranker(q);
    const rank = ranking.findIndex((id) => questions[q]!.relevant.has(id));
    if (rank >= 0) reciprocal += 1 / (rank + 1);
    for (const k of KS) if (rank >= 0 && rank < k) hits[k]!++;
  }
  const n = questions.length;
  return {
    ...Object.fromEntries(KS.map((k) => [`R@${k}`, (hits[k]! / n).toFixed(3)])),
    MRR: (reciprocal / n).toFixed(3),
  };
}

const [small, large] = [await passageVectors(250), await passageVectors(1_000)];
const own = await passageVectors(PASSAGE_CHARS);
const rows: Array<[string, Awaited<ReturnType<typeof score>>]> = [
  ['single vector per page (before)', await score(single)],
  [`multi-vector, served (max-sim, ${PASSAGE_CHARS}-char passages)`, await score(served)],
  [`max-sim, ${PASSAGE_CHARS}-char passages (computed here)`, await score(maxSim(own))],
  ['max-sim, 250-char passages', await score(maxSim(small))],
  ['max-sim, 1,000-char passages', await score(maxSim(large))],
  [`mean of best two, ${PASSAGE_CHARS}-char passages`, await score(topTwoMean(own))],
];

console.log(`machine: ${machineLine()}`);
console.log(`embedder ${embedder.name}/${embedder.model}, storage ${config.storage.kind}`);
console.log(
  `${conversations.length} documents, ${pages.length} pages, ${passageCount} passages of ≤${PASSAGE_CHARS} chars, ${questions.length} questions; ingest ${(ingestMs / 1000).toFixed(1)} s`,
);
console.table(Object.fromEntries(rows));
const sorted = [...latencies].sort((a, b) => a - b);
console.log(
  `served search latency over ${sorted.length} queries: p50 ${percentile(sorted, 50).toFixed(1)} ms, p95 ${percentile(sorted, 95).toFixed(1)} ms`,
);

await app.close();
rmSync(dataDir, { recursive: true, force: true });
