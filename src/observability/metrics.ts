import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { secondsSince } from '../core/clock.js';
import type { QueueReading } from '../core/queue-reading.js';
import { RECALL_PHASES, type RecallPhase } from '../core/telemetry.js';

/** Latency buckets (seconds) per kind of work: a recall phase takes microseconds, a model call seconds. */
const BUCKETS = {
  http: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  recallPhase: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  embedding: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  llm: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
  task: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
};

/** How a call to a model or a task ended. */
export type Outcome = 'ok' | 'error';

/** A provider as metrics label it: the family and the model. */
export interface ProviderLabels {
  provider: string;
  model: string;
}

/** What the gauges read when scraped: the task queue (at the scrape's instant) and the live sandboxes. */
export interface GaugeSources {
  taskQueue(): Promise<QueueReading>;
  liveSandboxes(): number;
}

let processRegistry: Registry | undefined;

/**
 * Node's default metrics (CPU, memory, event-loop lag, GC, handles) describe the process, not one server in it, so
 * they are collected once per process: tests start many servers in one process, and each would add its own GC
 * observer.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const TASK_STATES = ['pending', 'scheduled', 'running', 'failed'] as const;

/**
 * The Prometheus metrics of one memd server (README.md lists them). Labels never carry a workspace, a user or a
 * raw URL: their values come from small fixed sets (route patterns, phases, providers, task kinds).
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly recallPhases: Histogram<'phase'>;
  private readonly recallCacheLookups: Counter<'result'>;
  private readonly embeddingDuration: Histogram<'provider' | 'model' | 'outcome'>;
  private readonly embeddingTexts: Counter<'provider' | 'model'>;
  private readonly llmDuration: Histogram<'provider' | 'model' | 'outcome'>;
  private readonly llmTokens: Counter<'provider' | 'model' | 'direction'>;
  private readonly taskDuration: Histogram<'kind' | 'outcome'>;
  private readonly taskFailures: Counter<'kind' | 'final'>;
  /** The queue as read for the scrape in progress: one read serves every queue gauge. */
  private queue: QueueReading | null = null;

  constructor(private readonly sources: GaugeSources) {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'memd_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code, and how long they took',
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS.http,
      registers,
    });
    this.recallPhases = new Histogram({
      name: 'memd_recall_phase_duration_seconds',
      help: 'Time spent in each phase of recall (arms, fusion, expansion, rerank, …)',
      labelNames: ['phase'],
      buckets: BUCKETS.recallPhase,
      registers,
    });
    // Every phase is listed from the start, so that a rate over it is defined before its first observation.
    for (const phase of RECALL_PHASES) this.recallPhases.zero({ phase });
    this.recallCacheLookups = new Counter({
      name: 'memd_recall_cache_lookups_total',
      help: 'Recalls answered from the recall cache (result="hit") or computed (result="miss")',
      labelNames: ['result'],
      registers,
    });
    for (const result of ['hit', 'miss']) this.recallCacheLookups.inc({ result }, 0);
    this.embeddingDuration = new Histogram({
      name: 'memd_embedding_request_duration_seconds',
      help: 'Calls to the embedding model (batches), by outcome, and how long they took',
      labelNames: ['provider', 'model', 'outcome'],
      buckets: BUCKETS.embedding,
      registers,
    });
    this.embeddingTexts = new Counter({
      name: 'memd_embedding_texts_total',
      help: 'Texts embedded',
      labelNames: ['provider', 'model'],
      registers,
    });
    this.llmDuration = new Histogram({
      name: 'memd_llm_request_duration_seconds',
      help: 'Calls to the language model (retries included), by outcome, and how long they took',
      labelNames: ['provider', 'model', 'outcome'],
      buckets: BUCKETS.llm,
      registers,
    });
    this.llmTokens = new Counter({
      name: 'memd_llm_tokens_total',
      help: 'Tokens the language model reported using, by direction (input, output)',
      labelNames: ['provider', 'model', 'direction'],
      registers,
    });
    this.taskDuration = new Histogram({
      name: 'memd_task_duration_seconds',
      help: 'Background tasks run, by kind and outcome, and how long they took (a task run in a batch: its share of the batch)',
      labelNames: ['kind', 'outcome'],
      buckets: BUCKETS.task,
      registers,
    });
    this.taskFailures = new Counter({
      name: 'memd_task_failures_total',
      help: 'Background task failures by kind; final="true" when the task will not be retried',
      labelNames: ['kind', 'final'],
      registers,
    });
    // Read at scrape time from the database (see scrape()), so every node reports the shared queue.
    const queue = () => this.queue;
    new Gauge({
      name: 'memd_tasks',
      help: 'Tasks in the durable queue by state: pending (due), scheduled (waiting for their time), running, failed',
      labelNames: ['state'],
      registers,
      collect() {
        this.reset();
        const read = queue();
        if (read) for (const state of TASK_STATES) this.set({ state }, read.summary.counts[state]);
      },
    });
    new Gauge({
      name: 'memd_task_backlog',
      help: 'Due tasks waiting to run, by kind (memory.enrich: memories whose facts, links and contradiction checks are still to come)',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        for (const { kind, pending } of queue()?.summary.backlog ?? []) this.set({ kind }, pending);
      },
    });
    new Gauge({
      name: 'memd_task_backlog_oldest_seconds',
      help: 'How long the longest-waiting due task of each kind has waited, in seconds',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        const read = queue();
        for (const { kind, oldestDueAt } of read?.summary.backlog ?? [])
          this.set({ kind }, secondsSince(read!.at, oldestDueAt));
      },
    });
    new Gauge({
      name: 'memd_sandboxes_live',
      help: 'Python sandboxes alive on this node',
      registers,
      collect() {
        this.set(sources.liveSandboxes());
      },
    });
  }

  readonly contentType = this.registry.contentType;

  /** The exposition text: this server's metrics and the process's. */
  async scrape(): Promise<string> {
    this.queue = await this.sources.taskQueue().catch(() => null);
    const [process, server] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}\n${server}`;
  }

  httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  recallPhase(phase: RecallPhase, seconds: number): void {
    this.recallPhases.observe({ phase }, seconds);
  }

  recallCache(hit: boolean): void {
    this.recallCacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }

  embedding(labels: ProviderLabels, outcome: Outcome, seconds: number, texts: number): void {
    this.embeddingDuration.observe({ ...labels, outcome }, seconds);
    if (outcome === 'ok') this.embeddingTexts.inc(labels, texts);
  }

  llm(
    labels: ProviderLabels,
    outcome: Outcome,
    seconds: number,
    tokens: { input: number | undefined; output: number | undefined },
  ): void {
    this.llmDuration.observe({ ...labels, outcome }, seconds);
    if (tokens.input !== undefined) this.llmTokens.inc({ ...labels, direction: 'input' }, tokens.input);
    if (tokens.output !== undefined) this.llmTokens.inc({ ...labels, direction: 'output' }, tokens.output);
  }

  /** `count` tasks run as one batch in `seconds`: each counts its share. */
  task(kind: string, outcome: Outcome, seconds: number, count: number): void {
    for (let i = 0; i < count; i++) this.taskDuration.observe({ kind, outcome }, seconds / count);
  }

  taskFailed(kind: string, final: boolean): void {
    this.taskFailures.inc({ kind, final: String(final) });
  }
}
