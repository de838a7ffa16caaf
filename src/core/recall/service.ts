import type { Logger } from '../logger.js';
import type { EmbeddingProvider } from '../../providers/embedding/types.js';
import type { LlmProvider } from '../../providers/llm/types.js';
import {
  FACT_SCOPE,
  type ContradictedPair,
  type Memory,
  type MemoryCandidate,
  type MemoryFilter,
  type Storage,
} from '../../storage/types.js';
import type { Clock } from '../clock.js';
import { noTelemetry, type Telemetry } from '../telemetry.js';
import { AccessRecorder } from './access.js';
import { freshness, staleness, trustScore } from './annotate.js';
import {
  armRanksOf,
  LEFT_OUT_PER_REASON,
  snippet,
  type Boosts,
  type LeftOut,
  type RecallExplanation,
  type ResultExplanation,
} from './explain.js';
import {
  denseArms,
  entityArm,
  keywordArm,
  keywordEvidence,
  readProposed,
  seenMemories,
  temporalArm,
  type ArmInput,
} from './arms.js';
import { backlinkFactor, recencyFactor, scopeFactor } from './boosts.js';
import { isOfWindow } from './temporal.js';
import { laterFirst } from './contradicted.js';
import { RecallCache } from './cache.js';
import {
  asksQuestion,
  conversationNeighbours,
  hasConversation,
  opensWithSpeaker,
  writtenNear,
  WRITTEN_AROUND_PER_SPAN,
  type ConversationNeighbour,
} from './conversation.js';
import { contentAt, tokenSummary } from './detail.js';
import { aboutAny, cosine, relevanceOf, termCoverage } from './evidence.js';
import {
  fuse,
  fusedWith,
  rankByScore,
  RRF_K,
  type ArmName,
  type ArmResult,
  type ArmWeights,
  type FusedCandidate,
} from './fusion.js';
import { holdsEveryWord, keywordScoresOf, type KeywordEvidence, PORTER_STEMMING } from './keyword-score.js';
import { topicalText } from './topical.js';
import { heldSynonyms, withSynonymsForUnmatched } from './unmatched.js';
import { CONTEXT_DISTANCE_DECAY, rankingScorer, type RankingFeatures, type RankingWeights } from './ranking.js';
import { expand, graphArm, NOT_BACKLINKS } from './graph.js';
import { classifyIntent } from './intent.js';
import { MatchCountCache } from './match-counts.js';
import { resolveOptions, type ResolvedOptions } from './options.js';
import { processQuery, type ProcessedQuery, withoutShouting } from './query.js';
import type { Reranker } from './rerank.js';
import { rewriteQuery } from './rewrite.js';
import type { MatchSignal, RecalledMemory, RecallRequest, RecallResult } from './types.js';
import { estimateTokens } from '../text/index.js';
import { knownWords } from '../text/spelling.js';
import { warmThesaurus } from '../text/synonyms.js';

/** The knobs of ranking, measured on LoCoMo (see bench/locomo.ts); tests and benches may pass their own. */
export interface RecallTuning {
  /** RRF weight per arm. */
  weights: ArmWeights;
  /** Weight per ranking feature (see ranking.ts). */
  ranking: RankingWeights;
  /** Candidates per arm: max(overfetch x ranked places, minDepth); several arms together propose more. */
  overfetch: number;
  minDepth: number;
  /**
   * Scored keyword searches read this many times the depth, ranked again by our own BM25 and cut to the depth: the
   * engines' scores (FTS5's BM25, Postgres's ts_rank) pick different matches at the engine's cut.
   */
  keywordOverfetch: number;
  /** The graph arm starts from this many of the best candidates (0: off). */
  graphSeeds: number;
  /** Conversation neighbours of this many of the best results inherit their score… */
  neighbourSeeds: number;
  /** …times these factors, by distance (1, 2, … turns away). */
  neighbourDecay: number[];
  /**
   * …and the turns before a turn that asks a question (`asksQuestion`) this share more: what answers a question comes
   * after it (src/core/recall/README.md, "The turns before a question").
   */
  beforeQuestion: number;
  backlinks: boolean;
  /** A memory a later one contradicts (unresolved) gives it its place where both are in the answer (contradicted.ts). */
  laterFirst: boolean;
  /** Arms left out (the ablation of bench/locomo.ts measures what each adds); none by default. */
  disabledArms: readonly ArmName[];
  /** The vector arm's share of the fused sum from the candidates' rank in similarity among all of them (score()). */
  vectorRankAmongCandidates: boolean;
  /** The entity arm also orders this many of a named entity's newest memories by the `topical` query (0: not). */
  topicalScan: number;
  /** A query word that matches no memory gets up to this many synonyms that do (unmatched.ts; 0: none). */
  unmatchedSynonyms: number;
  /**
   * What a query word that matches nothing weighs in keyword evidence (BM25, and the names' share of it) when it is
   * searched through stand-ins (unmatched.ts: a synonym, a broader word…): this share of the rarity its stand-ins give
   * it. A stand-in is evidence of the word the asker chose, weaker than the word itself (src/core/recall/README.md,
   * "A stand-in weighs half the word").
   */
  standInWeight: number;
}

export const DEFAULT_TUNING: RecallTuning = {
  weights: { vector: 1, keyword: 1, entity: 1, fact: 1, temporal: 1, graph: 0.5 },
  ranking: {
    keyword: 2,
    similarity: 1.5,
    topical: 3,
    fact: 0.25,
    coverage: 1,
    synonym: 1,
    complete: 1,
    keywordContext: 0.5,
    fused: 0.8,
    about: 0.2,
    inWindow: 1,
  },
  overfetch: 0.8,
  minDepth: 20,
  keywordOverfetch: 2,
  graphSeeds: 5,
  neighbourSeeds: 8,
  neighbourDecay: [0.8, 0.8],
  beforeQuestion: 0.5,
  backlinks: true,
  laterFirst: true,
  disabledArms: [],
  vectorRankAmongCandidates: true,
  topicalScan: 500,
  unmatchedSynonyms: 2,
  standInWeight: 0.5,
};

/** Changes to the default tuning; arm and ranking weights not named keep their default. */
export type TuningOverride = Partial<Omit<RecallTuning, 'weights' | 'ranking'>> & {
  weights?: Partial<ArmWeights>;
  ranking?: Partial<RankingWeights>;
};

/** The default tuning with `override` applied (benches compare settings this way). */
export const tunedBy = (override: TuningOverride): RecallTuning => ({
  ...DEFAULT_TUNING,
  ...override,
  weights: { ...DEFAULT_TUNING.weights, ...override.weights },
  ranking: { ...DEFAULT_TUNING.ranking, ...override.ranking },
});

/**
 * Recall ranks as if asked for at least this many results: everything that depends on the number of places (the
 * arms' depth, where expansion starts and what it must beat, the reranker's pool) is the same for any limit up to
 * it, so the answer to a smaller limit is the head of the answer to a larger one (the top 10 of a limit-25 answer
 * is the limit-10 answer). Beyond it, a larger limit searches deeper.
 */
export const STABLE_PLACES = 25;

/** The places ranked for a request of `limit` results. */
export const rankedPlaces = (limit: number): number => Math.max(limit, STABLE_PLACES);

/** How many candidates each arm returns for a request of `limit` results. */
export const armDepth = (tuning: RecallTuning, limit: number): number =>
  Math.max(tuning.overfetch * rankedPlaces(limit), tuning.minDepth);

export interface RecallDeps {
  storage: Storage;
  queryEmbedder: EmbeddingProvider;
  clock: Clock;
  llm: LlmProvider | null;
  reranker: Reranker | null;
  log: Logger;
  cache: { maxEntries: number; ttlMs: number };
  tuning?: RecallTuning;
  /** Times each phase (metrics) and traces it (spans); nothing by default. */
  telemetry?: Telemetry;
}

/** The query's vector, and that of what it asks about the entities it names (topical.ts), when it names any. */
interface QueryVectors {
  query: Float32Array;
  topical: Float32Array | undefined;
}

/** What the arms found: fused candidates, and the rows and similarities their searches read on the way. */
interface Retrieved {
  candidates: Map<string, FusedCandidate>;
  rows: ReadonlyMap<string, MemoryCandidate>;
  similarity: Map<string, number>;
  arms: readonly ArmName[];
  /** Each arm's ranked answer (the graph arm's last), kept for `explain`. */
  results: readonly ArmResult[];
  /** Knowledge backlinks of every candidate: the searches' counted while their rows are read, the graph arm's after. */
  backlinks: Promise<Map<string, number>>;
  keywordEvidence: Promise<KeywordEvidence>;
}

/** The turns around the anchors whose conversations were read. */
interface TurnsRead {
  read: ReadonlySet<string>;
  neighbours: readonly ConversationNeighbour[];
}

interface Scored {
  id: string;
  memory: MemoryCandidate;
  relevance: number;
  boosted: number;
  signals: Set<MatchSignal>;
  expanded: boolean;
  /** A direct candidate's ranking features and boosts (for `explain`); null when found by context or expansion. */
  features: RankingFeatures | null;
  boosts: Boosts | null;
}

type CachedRecall = Omit<RecallResult, 'search_latency_ms' | 'query_embedding_ms' | 'cached'>;

const round = (x: number, digits = 6): number => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Best first: ranking score, then relevance, then the later written (then id): a total order that is the same on
 * every backend holding the same memories, whatever ids they were given.
 */
const byScore = (a: Scored, b: Scored): number =>
  b.boosted - a.boosted || b.relevance - a.relevance || b.memory.seq - a.memory.seq || a.id.localeCompare(b.id);

/** Unnamed conversation neighbours must have happened within this time of their anchor: one sitting, not the next day. */
const SAME_SITTING_MS = 3_600_000;

/** A question with a name, a date and a relative time: the date parser's patterns run on it as on any question. */
const WARM_UP_QUERY = 'What did Anna Lee say on 3 May 2021 about the trip last week?';

/**
 * The recall pipeline (docs/specification.md §1): cache -> intent -> arms in parallel -> RRF fusion -> graph arm -> boosts
 * -> relevance floor -> association expansion -> rerank -> later first (contradicted.ts) -> detail level -> annotation
 * -> access counting.
 */
export class RecallService {
  private readonly cache: RecallCache<CachedRecall>;
  private readonly access: AccessRecorder;
  private readonly tuning: RecallTuning;
  private readonly matchCounts: MatchCountCache;
  private readonly telemetry: Telemetry;

  constructor(private readonly deps: RecallDeps) {
    this.telemetry = deps.telemetry ?? noTelemetry;
    this.cache = new RecallCache(deps.cache, deps.clock, deps.storage.workspaces);
    this.access = new AccessRecorder(deps.storage, deps.clock, deps.log);
    this.tuning = deps.tuning ?? DEFAULT_TUNING;
    this.matchCounts = new MatchCountCache(deps.storage, deps.clock);
  }

  /**
   * Does at start what the first recalls after it would otherwise pay for: reading the thesaurus and counting its
   * broader words (about 250 and 60 ms, text/synonyms.ts), gathering its words for spelling (about 270 ms,
   * text/spelling.ts) and compiling the date parser's patterns, which V8 interprets the first time they run and
   * compiles to machine code the second (about 110 ms in a process's second query, whatever it asks; chrono-node's
   * `executeParser` in a CPU profile). Without it the first question to a fresh
   * server took 320-395 ms of engine time and the second 136-301 ms on either backend; with it 68-158 and 24-132
   * (BENCHMARKS.md, "the first recalls after a start").
   */
  warmUp(): void {
    warmThesaurus();
    knownWords();
    for (let run = 0; run < 2; run++) processQuery(WARM_UP_QUERY, this.deps.clock.now());
  }

  recall(request: RecallRequest): Promise<RecallResult> {
    return this.telemetry.span('recall', async (span) => {
      const result = await this.run(request);
      span.setAttributes({
        'memd.recall.cached': result.cached,
        'memd.recall.results': result.total_count,
        'memd.recall.mode': result.mode_used,
      });
      return result;
    });
  }

  private async run(request: RecallRequest): Promise<RecallResult> {
    const started = performance.now();
    const workspaceId = request.workspaceId;
    const key = JSON.stringify(request);
    const version = await this.cache.version(workspaceId);
    const hit = this.cache.get(workspaceId, key, version);
    this.telemetry.recallCache(hit !== undefined);
    if (hit) {
      this.access.record(
        workspaceId,
        hit.memories.map((m) => m.id),
      );
      return { ...hit, search_latency_ms: round(performance.now() - started, 3), query_embedding_ms: 0, cached: true };
    }

    const queryText = withoutShouting(await this.standaloneQuery(request));
    const now = this.deps.clock.now();
    const asked = processQuery(queryText, now);
    const intents = classifyIntent(asked);
    const options = resolveOptions(request, intents, asked.windows.length > 0);
    // Counting the query's words (which the keyword arms do anyway) runs while the query is embedded.
    const expanded = withSynonymsForUnmatched(asked, this.matchCounts, workspaceId, this.tuning.unmatchedSynonyms);
    expanded.catch(() => undefined); // awaited below, after the embedding

    const embeddingStarted = performance.now();
    // One call for both: what the query asks about the entities it names is embedded beside it (topical.ts).
    const topicalQuery = this.tuning.ranking.topical > 0 || this.tuning.topicalScan > 0 ? topicalText(asked) : null;
    const [vector, topical] = await this.telemetry.recallPhase('embed_query', () =>
      this.deps.queryEmbedder.embed(topicalQuery === null ? [queryText] : [queryText, topicalQuery]),
    );
    const embeddingMs = performance.now() - embeddingStarted;
    const query = await expanded;

    const vectors: QueryVectors = { query: vector!, topical };
    const retrieved = await this.retrieve(workspaceId, query, vectors, options, intents.includes('entity'));
    const { ranked, turns, belowFloor } = await this.telemetry.recallPhase('rank', () =>
      this.score(workspaceId, query, vectors, retrieved, options, now),
    );
    const withNeighbours = await this.spreadToNeighbours(workspaceId, ranked, turns, options);
    // The full rows of the likely answer, and the contradictions that place its memories, are read while expansion
    // looks for more: expansion seldom changes the first places, and on PostgreSQL reading them after it was one
    // more round trip on every recall.
    const likelyIds = withNeighbours.slice(0, options.limit).map((s) => s.id);
    const likelyRows = this.readRows(workspaceId, likelyIds);
    const likelyPairs = this.contradictedAmong(workspaceId, likelyIds);
    likelyPairs.catch(() => undefined); // awaited in laterFirst()
    const withExpansion = await this.expandAssociations(workspaceId, withNeighbours, options);
    const { ordered: rerankedOrder, reranked } = await this.rerank(query.text, withExpansion, options);
    const ordered = await this.laterFirst(workspaceId, rerankedOrder, options.limit, {
      ids: likelyIds,
      pairs: likelyPairs,
    });
    const memories = await this.telemetry.recallPhase('present', () =>
      this.present(workspaceId, ordered.slice(0, options.limit), likelyRows, options, now),
    );

    const result: CachedRecall = {
      memories,
      total_count: memories.length,
      matched_count: ordered.length,
      mode_used: reranked ? 'hybrid' : 'rag',
      query_tokens: estimateTokens(request.query),
      query_rewritten: queryText === request.query ? null : queryText,
      token_summary: tokenSummary(
        memories.map((m) => m.content),
        ordered.slice(0, options.limit).map((s) => s.memory.content),
      ),
      intents,
    };
    if (options.explain) Object.assign(result, this.explain(retrieved, ordered, belowFloor, memories, options, query));
    this.cache.set(workspaceId, key, result, version);
    this.access.record(
      workspaceId,
      memories.map((m) => m.id),
    );
    return {
      ...result,
      search_latency_ms: round(performance.now() - started, 3),
      query_embedding_ms: round(embeddingMs, 3),
      cached: false,
    };
  }

  /** With recent conversation and a language model, the query made standalone; else the query as given. */
  private async standaloneQuery(request: RecallRequest): Promise<string> {
    const { llm } = this.deps;
    const { context } = request;
    if (!llm || !context?.length) return request.query;
    try {
      return await this.telemetry.recallPhase('rewrite', () => rewriteQuery(llm, request.query, context));
    } catch (error) {
      // Rewriting only helps: a failing model leaves recall working on the query as asked.
      this.deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'query rewrite skipped');
      return request.query;
    }
  }

  /** Runs the arms the intent calls for and fuses them; then the graph arm adds neighbours of the best. */
  private async retrieve(
    workspaceId: string,
    query: ProcessedQuery,
    { query: vector, topical }: QueryVectors,
    options: ResolvedOptions,
    entityIntent: boolean,
  ): Promise<Retrieved> {
    const { storage } = this.deps;
    const { weights } = this.tuning;
    const depth = armDepth(this.tuning, options.limit);
    const seen = seenMemories();
    const evidence = keywordEvidence(this.matchCounts, workspaceId, query, this.tuning.standInWeight);
    evidence.catch(() => undefined); // awaited by the keyword arms and in score()
    const input: ArmInput = {
      storage,
      workspaceId,
      query,
      vector,
      filter: options.filter,
      depth,
      matchCounts: this.matchCounts,
      keywordOverfetch: this.tuning.keywordOverfetch,
      keywordSearches: new Map(),
      keywordEvidence: evidence,
      seen,
      topical: topical && this.tuning.topicalScan > 0 ? { vector: topical, scan: this.tuning.topicalScan } : null,
    };
    const optional: Array<Promise<ArmResult>> = [];
    const { telemetry } = this;
    const runs = (arm: ArmName): boolean => !this.tuning.disabledArms.includes(arm);
    if (runs('keyword') && query.terms.length > 0)
      optional.push(telemetry.recallPhase('keyword', () => keywordArm(input)));
    if (runs('entity') && entityIntent && query.entities.length > 0)
      optional.push(telemetry.recallPhase('entity', () => entityArm(input)));
    if (runs('temporal') && query.windows.length > 0)
      optional.push(telemetry.recallPhase('temporal', () => temporalArm(input)));
    const [dense, ...others] = await Promise.all([telemetry.recallPhase('dense', () => denseArms(input)), ...optional]);
    const arms: ArmResult[] = [dense!.vector, dense!.fact, ...others].filter((arm) => runs(arm.arm));
    const candidates = telemetry.recallPhaseSync('fusion', () => fuse(arms, weights));
    const ran: ArmName[] = arms.map((a) => a.arm);
    const results = [...arms];
    // The graph arm's links are read (on SQLite's reader thread) while this thread reads the dense candidates' rows.
    let graph: Promise<ArmResult> | null = null;
    if (options.includeAssociations && this.tuning.graphSeeds > 0 && weights.graph > 0 && runs('graph')) {
      const seeds = [...candidates.values()]
        .sort((a, b) => b.fused - a.fused)
        .slice(0, this.tuning.graphSeeds)
        .map((c) => c.id);
      graph = telemetry.recallPhase('graph', () => graphArm(storage, workspaceId, seeds, depth));
      graph.catch(() => undefined); // awaited below, after the rows
    }
    // After the graph arm's links, which this thread needs first: counted on SQLite's reader thread while this
    // thread reads rows and ranks.
    const searched = new Set(candidates.keys());
    const searchedCounts = this.countBacklinks(workspaceId, [...searched]);
    await readProposed(input, [dense!.vector, dense!.fact]);
    let graphCounts = Promise.resolve(new Map<string, number>());
    if (graph) {
      const graphResult = await graph;
      fuse([graphResult], weights, candidates);
      ran.push('graph');
      results.push(graphResult);
      graphCounts = this.countBacklinks(
        workspaceId,
        [...candidates.keys()].filter((id) => !searched.has(id)),
      );
    }
    const backlinks = Promise.all([searchedCounts, graphCounts]).then(([a, b]) => new Map([...a, ...b]));
    backlinks.catch(() => undefined); // awaited in score()
    return {
      candidates,
      rows: seen.rows,
      similarity: seen.similarity,
      arms: ran,
      results,
      backlinks,
      keywordEvidence: evidence,
    };
  }

  /** Knowledge backlinks of `ids` (none when the boost is off). Awaited later; a failure is reported there. */
  private countBacklinks(workspaceId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const counts =
      this.tuning.backlinks && ids.length > 0
        ? this.deps.storage.associations.incomingCounts(workspaceId, ids, { excludeRelationships: NOT_BACKLINKS })
        : Promise.resolve(new Map<string, number>());
    counts.catch(() => undefined);
    return counts;
  }

  /**
   * Memories among `ids` that pass the request's filters (never facts), fetching only those not yet known; the
   * similarity to `measure`'s vector of those fetched is added to its map in the same read.
   */
  private async accept(
    workspaceId: string,
    ids: readonly string[],
    filter: MemoryFilter,
    known: ReadonlyMap<string, MemoryCandidate>,
    measure: { vector: Float32Array; similarity: Map<string, number> },
  ): Promise<Map<string, MemoryCandidate>> {
    const accepted = new Map<string, MemoryCandidate>();
    const unknown: string[] = [];
    for (const id of ids) {
      const memory = known.get(id);
      if (memory) accepted.set(id, memory);
      else unknown.push(id);
    }
    if (unknown.length > 0) {
      const found = await this.deps.storage.memories.candidates(workspaceId, unknown, {
        filter: { ...filter, excludeSourceScopes: [FACT_SCOPE] },
        similarTo: measure.vector,
      });
      for (const { memory, similarity } of found) {
        accepted.set(memory.id, memory);
        if (similarity !== null) measure.similarity.set(memory.id, similarity);
      }
    }
    return accepted;
  }

  /** The turns around each anchor in its conversation (conversation.ts: named, a session, or turns in write order). */
  private async turnsAround(
    workspaceId: string,
    anchors: readonly MemoryCandidate[],
    options: ResolvedOptions,
  ): Promise<ConversationNeighbour[]> {
    if (anchors.length === 0 || this.tuning.neighbourDecay.length === 0) return [];
    const inConversation = await this.inConversation(workspaceId, anchors);
    if (inConversation.length === 0) return [];
    const span = this.conversationSpan();
    const written = await this.deps.storage.memories.writtenAround(
      workspaceId,
      inConversation.map((m) => m.seq),
      {
        reach: span * WRITTEN_AROUND_PER_SPAN,
        filter: { ...options.filter, excludeSourceScopes: [FACT_SCOPE] },
      },
    );
    return conversationNeighbours(
      inConversation.map((m) => m.id),
      written,
      { span, withinMs: SAME_SITTING_MS },
    );
  }

  /**
   * The anchors that have a conversation (conversation.ts `hasConversation`): turns by their text, the others by their
   * metadata, read for those only. A statement has no neighbours, and reading the memories written around each was
   * most of what conversation context cost a recall among statements (BENCHMARKS.md, "statements read around").
   */
  private async inConversation(workspaceId: string, anchors: readonly MemoryCandidate[]): Promise<MemoryCandidate[]> {
    const unlabelled = anchors.filter((m) => !opensWithSpeaker(m.content));
    if (unlabelled.length === 0) return [...anchors];
    const metadata = await this.deps.storage.memories.metadataAt(
      workspaceId,
      unlabelled.map((m) => m.seq),
    );
    // A labelled anchor's metadata was not read: its label alone makes it a turn.
    return anchors.filter((m) => hasConversation({ content: m.content, metadata: metadata.get(m.seq) ?? {} }));
  }

  /** How many turns each side conversation context looks at. */
  private conversationSpan(): number {
    return Math.max(this.tuning.neighbourDecay.length, CONTEXT_DISTANCE_DECAY.length);
  }

  /** Relevance (evidence) and ranking score of every candidate; those under the floor go. Best first. */
  private async score(
    workspaceId: string,
    query: ProcessedQuery,
    { query: vector, topical }: QueryVectors,
    { candidates, rows, similarity: searched, arms, results, backlinks, keywordEvidence: evidence }: Retrieved,
    options: ResolvedOptions,
    now: Date,
  ): Promise<{ ranked: Scored[]; turns: TurnsRead; belowFloor: Scored[] }> {
    const { storage } = this.deps;
    const { weights, ranking } = this.tuning;
    const candidateIds = [...candidates.keys()];
    const memories = await this.accept(workspaceId, candidateIds, options.filter, rows, {
      vector,
      similarity: searched,
    });
    const ids = [...memories.keys()];
    const coverageOf = termCoverage(query.terms, query.termForms, query.entities);
    const coverage = new Map(ids.map((id) => [id, coverageOf(memories.get(id)!.content)]));
    // The share of query words held, for the relevance floor and `relevance_score`, by the keyword index's own stems
    // too: the light stemmer the ranking's coverage was tuned with keeps "lives" apart from "live", and so "where does
    // the customer live?" answered nothing where a memory says "Maya lives in Lisbon" (the index had found it). The
    // ranking keeps its coverage: Porter's there, or the light stemmer mended, cost LoCoMo a question in each mode
    // (src/core/recall/README.md, "Porter stems for coverage").
    const heldShareOf = termCoverage(query.terms, query.termForms, query.entities, PORTER_STEMMING);
    // What the query asks about the entities it names ranks only where no candidate holds every word of the query:
    // there words decide, and a nearer topical vector of a memory missing a word must not outrank one holding them
    // all (issue 24; test/conformance/recall-at-scale.test.ts). The entity arm skips its scan alike.
    const holdsEvery = holdsEveryWord(query);
    const topicalRanks =
      topical !== undefined && ranking.topical > 0 && !ids.some((id) => holdsEvery(memories.get(id)!.content));
    // The searches and the read of the other candidates measured their similarity; left are fact-arm parents the
    // dense search did not meet. When the topical query ranks, every candidate's vector is read to measure it.
    const toRead = topicalRanks ? ids : ids.filter((id) => !searched.has(id));
    const embeddings = await storage.memories.getEmbeddings(workspaceId, toRead);
    // Keyword evidence: BM25 over each candidate's own words (keyword-score.ts), whichever arm found it, relative to
    // the best of this query, times the square root of the share of query words the memory holds, so that the best
    // of weak matches (one common word) does not score as a full match. (Linear coverage measured 0.700 recall@10 on
    // LoCoMo, the square root 0.713, none 0.710, with the engine's scores of the keyword arm's own candidates.)
    const bm25 = keywordScoresOf(
      await evidence,
      ids.map((id) => memories.get(id)!.content),
    );
    const bestKeyword = Math.max(0, ...bm25);
    const keyword = new Map(
      ids.map((id, i) => [id, bestKeyword > 0 ? (bm25[i]! / bestKeyword) * Math.sqrt(coverage.get(id)!) : 0]),
    );
    const synonymOf = heldSynonyms(query, await evidence);
    const isAbout = aboutAny(query.entities);
    const rankingScore = rankingScorer(ranking);
    const maxFused = arms.reduce((total, arm) => total + weights[arm], 0) / (RRF_K + 1);

    const similarities = new Map(
      ids.map((id) => {
        const stored = embeddings.get(id);
        return [id, searched.get(id) ?? (stored ? cosine(vector, stored) : 0)];
      }),
    );
    // The vector arm's share of the fused sum by each candidate's rank in similarity among all of them, not by its
    // place in the index's answer: SQLite's and PostgreSQL's approximate indexes each miss different near
    // neighbours, and a memory one of them proposed and the other found by its words had scored higher on the
    // first (issue 22; BENCHMARKS.md). Where the search is exact the two orders are the same.
    const vectorRanks =
      this.tuning.vectorRankAmongCandidates && arms.includes('vector')
        ? rankByScore(similarities, armDepth(this.tuning, options.limit))
        : null;
    // `explain` reports the ranks the scores used.
    const vectorArm = vectorRanks && results.find((result) => result.arm === 'vector');
    if (vectorArm) vectorArm.ids = [...vectorRanks.keys()];

    const scored: Array<Scored & { features: RankingFeatures; boosts: Boosts }> = [];
    const belowFloor: Scored[] = [];
    for (const [id, memory] of memories) {
      const candidate = candidates.get(id)!;
      if (vectorRanks?.has(id)) candidate.signals.add('vector');
      else if (vectorRanks) candidate.signals.delete('vector');
      const similarity = similarities.get(id)!;
      const fact = candidate.armScores.get('fact') ?? 0;
      const held = coverage.get(id)! === 1 ? 1 : Math.max(coverage.get(id)!, heldShareOf(memory.content));
      const inWindow = query.windows.some((window) => isOfWindow(memory, window));
      const relevance = relevanceOf(
        Math.max(similarity, fact),
        // Every word held by the light stemmer is every word held: Porter's share is read only where it may add. A
        // memory of the time the query names holds that too, as one more of its words: "anything on the 14th?" asks
        // nothing else of "Flight to Lisbon on 14 December."
        inWindow ? (held * query.terms.length + 1) / (query.terms.length + 1) : held,
      );
      if (relevance < options.threshold) {
        if (options.explain)
          belowFloor.push({
            id,
            memory,
            relevance,
            boosted: 0,
            signals: candidate.signals,
            expanded: false,
            features: null,
            boosts: null,
          });
        continue;
      }
      const features: RankingFeatures = {
        keyword: keyword.get(id)!,
        similarity,
        topical: topicalRanks && embeddings.has(id) ? cosine(topical, embeddings.get(id)!) : 0,
        fact,
        coverage: coverage.get(id)!,
        synonym: synonymOf(memory.content),
        complete: query.terms.length >= 2 && coverage.get(id)! === 1 ? 1 : 0,
        keywordContext: 0, // below, once the turns around are read
        fused:
          maxFused > 0
            ? (vectorRanks ? fusedWith(candidate, weights, 'vector', vectorRanks) : candidate.fused) / maxFused
            : 0,
        about: isAbout(memory) ? 1 : 0,
        inWindow: inWindow ? 1 : 0,
      };
      // The fused candidate is this recall's own: its signals are taken over, not copied.
      const boosts: Boosts = {
        scope: scopeFactor(memory, options.scopeContextId),
        recency: recencyFactor(memory, now, options.recencyWeight),
        backlink: 1,
      };
      scored.push({ id, memory, relevance, boosted: 0, signals: candidate.signals, expanded: false, features, boosts });
    }
    // The backlink boost: memories other memories point at are more central.
    const boostOf = (b: Boosts) => b.scope * b.recency * b.backlink;
    const counts = await backlinks;
    for (const s of scored) {
      const factor = backlinkFactor(counts.get(s.id) ?? 0);
      s.boosts.backlink = factor;
      if (factor !== 1) s.signals.add('backlink');
      s.boosted = rankingScore(s.features) * boostOf(s.boosts);
    }

    // Keyword context: only candidates written near another candidate with keyword evidence can borrow any. The
    // turns around them are read at once with those of the likely seeds of the conversation spread (the best before
    // keyword context), so that the spread rarely reads again.
    const withKeyword = ids.filter((id) => keyword.get(id)! > 0).map((id) => memories.get(id)!);
    const near = new Set(
      writtenNear([...memories.values()], withKeyword, this.conversationSpan() * WRITTEN_AROUND_PER_SPAN),
    );
    // (Reading four more than the seeds cost more rows than the second reads it saved: bench:recall-profile.)
    const likelySeeds = [...scored].sort(byScore).slice(0, this.tuning.neighbourSeeds);
    const anchors = [...new Set([...near, ...likelySeeds.map((s) => s.id)])].map((id) => memories.get(id)!);
    const neighbours = await this.turnsAround(workspaceId, anchors, options);
    const keywordContext = new Map<string, number>();
    for (const { anchorId, offset, id } of neighbours) {
      if (!near.has(anchorId)) continue;
      const decay = CONTEXT_DISTANCE_DECAY[Math.abs(offset) - 1] ?? 0;
      keywordContext.set(anchorId, Math.max(keywordContext.get(anchorId) ?? 0, decay * (keyword.get(id) ?? 0)));
    }
    for (const s of scored) {
      const context = keywordContext.get(s.id) ?? 0;
      if (context === 0) continue;
      s.features.keywordContext = context;
      s.signals.add('context');
      s.boosted = rankingScore(s.features) * boostOf(s.boosts);
    }
    return { ranked: scored.sort(byScore), turns: { read: new Set(anchors.map((m) => m.id)), neighbours }, belowFloor };
  }

  /**
   * Conversation context: the turns written just before and after the best results (same context, session and
   * sitting) inherit their score, decayed by distance. A reply ("5 years already!") answers the turn before it; the
   * turns before a question lend it its context but rarely what it asks, and inherit less (`beforeQuestion`).
   */
  private async spreadToNeighbours(
    workspaceId: string,
    ranked: Scored[],
    turns: TurnsRead,
    options: ResolvedOptions,
  ): Promise<Scored[]> {
    const { neighbourSeeds, neighbourDecay, beforeQuestion } = this.tuning;
    if (neighbourSeeds === 0 || ranked.length === 0) return ranked;
    const seeds = new Map(ranked.slice(0, neighbourSeeds).map((s) => [s.id, s]));
    const byId = new Map(ranked.map((s) => [s.id, s]));
    // Ranking read the turns around most seeds already; those of the others are read now.
    const unread = [...seeds.values()].filter((s) => !turns.read.has(s.id)).map((s) => s.memory);
    const around = [...turns.neighbours, ...(await this.turnsAround(workspaceId, unread, options))];
    // The turns were read with their ranking columns, through the request's filter: none is read again.
    const inherited = new Map<string, { memory: MemoryCandidate; relevance: number; boosted: number }>();
    for (const { anchorId, offset, id, memory } of around) {
      const anchor = seeds.get(anchorId);
      const byDistance = neighbourDecay[Math.abs(offset) - 1];
      if (!anchor || byDistance === undefined) continue;
      const decay = offset < 0 && asksQuestion(anchor.memory.content) ? byDistance * beforeQuestion : byDistance;
      if (anchor.relevance * decay < options.threshold) continue;
      const best = inherited.get(id);
      if (!best || anchor.boosted * decay > best.boosted)
        inherited.set(id, { memory, relevance: anchor.relevance * decay, boosted: anchor.boosted * decay });
    }
    for (const [id, { memory, relevance, boosted }] of inherited) {
      const existing = byId.get(id);
      if (existing) {
        existing.signals.add('context');
        existing.relevance = Math.max(existing.relevance, relevance);
        existing.boosted = Math.max(existing.boosted, boosted);
      } else {
        byId.set(id, {
          id,
          memory,
          relevance,
          boosted,
          signals: new Set(['context']),
          expanded: false,
          features: null,
          boosts: null,
        });
      }
    }
    return [...byId.values()].sort(byScore);
  }

  /** Breadth-first expansion from the results that would be returned; discoveries compete for the same places. */
  private async expandAssociations(workspaceId: string, ranked: Scored[], options: ResolvedOptions): Promise<Scored[]> {
    if (!options.includeAssociations || options.traverseDepth === 0 || ranked.length === 0) return ranked;
    const places = rankedPlaces(options.limit);
    const seeds = ranked.slice(0, places);
    const discoveries = await this.telemetry.recallPhase('expansion', () =>
      expand(this.deps.storage, workspaceId, seeds, {
        maxDepth: options.traverseDepth,
        maxExpansion: options.maxExpansion,
        minRelevance: options.threshold,
        // A discovery must beat the last ranked place to change the answer.
        minScore: ranked.length >= places ? ranked[places - 1]!.boosted : 0,
        filter: { ...options.filter, excludeSourceScopes: [FACT_SCOPE] },
      }),
    );
    const byId = new Map(ranked.map((s) => [s.id, s]));
    for (const found of discoveries) {
      if (found.relevance < options.threshold) continue;
      const direct = byId.get(found.id);
      if (direct) {
        // Found directly (below the returned places) and through the graph: the better score stands.
        direct.signals.add('graph');
        if (found.boosted > direct.boosted)
          Object.assign(direct, { relevance: Math.max(direct.relevance, found.relevance), boosted: found.boosted });
        continue;
      }
      byId.set(found.id, {
        id: found.id,
        memory: found.memory,
        relevance: found.relevance,
        boosted: found.boosted,
        signals: new Set(['graph']),
        expanded: true,
        features: null,
        boosts: null,
      });
    }
    return [...byId.values()].sort(byScore);
  }

  /** A memory a later one contradicts (unresolved) gives it its place, where both are in the answer (contradicted.ts). */
  private async laterFirst(
    workspaceId: string,
    ordered: Scored[],
    limit: number,
    likely: { ids: readonly string[]; pairs: Promise<ContradictedPair[]> },
  ): Promise<Scored[]> {
    const read = new Set(likely.ids);
    const page = ordered.slice(0, limit);
    const unread = page.flatMap((s) => (read.has(s.id) ? [] : [s.id]));
    const [pairs, more] = await Promise.all([likely.pairs, this.contradictedAmong(workspaceId, unread)]);
    const all = [...pairs, ...more];
    // Within the answer only: a memory that many later ones contradict (rules flag "Delivery 3 reached warehouse 3"
    // against every later delivery to it) would otherwise give its place to each of them and leave the answer.
    return all.length === 0 ? ordered : [...laterFirst(page, all), ...ordered.slice(limit)];
  }

  /** The unresolved contradictions whose earlier memory is one of `ids` (none when the rule is off). */
  private contradictedAmong(workspaceId: string, ids: readonly string[]): Promise<ContradictedPair[]> {
    return this.tuning.laterFirst && ids.length > 0
      ? this.deps.storage.contradictions.laterContradicting(workspaceId, ids)
      : Promise.resolve([]);
  }

  /** The rerank step: the configured reranker reorders the leading candidates when retrieval is unsure of itself. */
  private async rerank(
    query: string,
    ranked: Scored[],
    options: ResolvedOptions,
  ): Promise<{ ordered: Scored[]; reranked: boolean }> {
    const { reranker } = this.deps;
    const confidence = ranked[0]?.relevance ?? 1;
    if (!reranker || ranked.length < 2 || confidence >= options.ragThreshold)
      return { ordered: ranked, reranked: false };
    // The ranked places, whatever the limit (STABLE_PLACES): a shorter answer stays the head of a longer one.
    const pool = ranked.slice(0, rankedPlaces(options.limit));
    try {
      const order = await this.telemetry.recallPhase('rerank', () =>
        reranker.rerank(
          query,
          pool.map((s) => ({ id: s.id, content: s.memory.content })),
        ),
      );
      const byId = new Map(pool.map((s) => [s.id, s]));
      const reordered = order.map((id) => byId.get(id)!).filter(Boolean);
      for (const s of reordered) s.signals.add('rerank');
      return { ordered: [...reordered, ...ranked.slice(pool.length)], reranked: true };
    } catch (error) {
      this.deps.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'rerank skipped');
      return { ordered: ranked, reranked: false };
    }
  }

  /** Full rows by id; awaited later, where a failure is reported. */
  private readRows(workspaceId: string, ids: readonly string[]): Promise<Map<string, Memory>> {
    const rows =
      ids.length === 0
        ? Promise.resolve(new Map<string, Memory>())
        : this.deps.storage.memories.getMany(workspaceId, ids).then((found) => new Map(found.map((m) => [m.id, m])));
    rows.catch(() => undefined);
    return rows;
  }

  /**
   * The results as returned: their full rows (ranking read only what it needed), annotated. `read` holds the rows
   * of those that were likely; the others are read now.
   */
  private async present(
    workspaceId: string,
    results: readonly Scored[],
    read: Promise<Map<string, Memory>>,
    options: ResolvedOptions,
    now: Date,
  ): Promise<RecalledMemory[]> {
    const rows = await read;
    const unread = results.filter((s) => !rows.has(s.id)).map((s) => s.id);
    for (const [id, memory] of await this.readRows(workspaceId, unread)) rows.set(id, memory);
    // A memory hard-deleted since it was ranked is gone from the answer.
    return results.flatMap((scored) => {
      const memory = rows.get(scored.id);
      return memory ? [this.annotate(scored, memory, options, now)] : [];
    });
  }

  private annotate(scored: Scored, memory: Memory, options: ResolvedOptions, now: Date): RecalledMemory {
    const fresh = freshness(memory, now);
    return {
      ...memory,
      content: contentAt(options.detailLevel, memory),
      source_scope: scored.expanded ? 'association' : memory.source_scope,
      relevance: round(scored.relevance),
      relevance_score: round(scored.relevance),
      boosted_score: round(scored.boosted),
      trust_score: round(trustScore(memory, fresh)),
      freshness: round(fresh),
      staleness: staleness(memory, now),
      match_signals: [...scored.signals].sort(),
    };
  }

  /**
   * `explain: true`: each result's arm places, ranking features and boosts, and the best candidates left out (under
   * the floor, or past the limit), so that a reader sees why a memory came back and why another did not.
   */
  private explain(
    retrieved: Retrieved,
    ordered: readonly Scored[],
    belowFloor: readonly Scored[],
    memories: RecalledMemory[],
    options: ResolvedOptions,
    { synonyms }: ProcessedQuery,
  ) {
    const ranksOf = armRanksOf(retrieved.results);
    // Rounded, and named as the wire names things (inWindow -> in_window).
    const rounded = (values: object | null): Record<string, number> | null =>
      values &&
      Object.fromEntries(
        Object.entries(values).map(([key, value]) => [
          key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
          round(value as number),
        ]),
      );
    const byId = new Map(ordered.map((s) => [s.id, s]));
    const leftOut = (scored: readonly Scored[], reason: LeftOut['reason']): LeftOut[] =>
      scored.slice(0, LEFT_OUT_PER_REASON).map((s) => ({
        id: s.id,
        content: snippet(s.memory.content),
        relevance_score: round(s.relevance),
        boosted_score: round(s.boosted),
        arm_ranks: ranksOf(s.id),
        reason,
      }));
    const explanation: RecallExplanation = {
      arms: [...retrieved.arms],
      arm_depth: armDepth(this.tuning, options.limit),
      relevance_floor: options.threshold,
      recency_weight: options.recencyWeight,
      candidates: retrieved.candidates.size,
      synonyms: Object.fromEntries([...synonyms].map(([word, searched]) => [word, [...searched]])),
      left_out: [
        ...leftOut(ordered.slice(options.limit), 'past_limit'),
        ...leftOut(
          [...belowFloor].sort((a, b) => b.relevance - a.relevance || a.id.localeCompare(b.id)),
          'below_floor',
        ),
      ],
    };
    return {
      explanation,
      memories: memories.map((m) => {
        const s = byId.get(m.id)!;
        const found_by: ResultExplanation['found_by'] = s.expanded ? 'association' : s.features ? 'search' : 'context';
        return {
          ...m,
          explanation: { found_by, arm_ranks: ranksOf(m.id), features: rounded(s.features), boosts: rounded(s.boosts) },
        };
      }),
    };
  }

  /** Resolves once the recalls of this memory counted so far are written (see AccessRecorder.settle). */
  settleAccess(workspaceId: string, memoryId: string): Promise<void> {
    return this.access.settle(workspaceId, memoryId);
  }

  /** Writes pending access counts (tests, shutdown). */
  flushAccess(): Promise<void> {
    return this.access.flush();
  }

  async close(): Promise<void> {
    this.cache.close();
    await this.access.flush();
  }
}
