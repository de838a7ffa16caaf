/**
 * What the core reports about its own work: how long the steps of its pipelines take (metrics) and what ran inside
 * what (traces). The core calls this interface and never a metrics or tracing library: `src/observability` fills it
 * with Prometheus and OpenTelemetry, and `noTelemetry` (the default of every service) does nothing.
 */

/** Span attributes: OpenTelemetry's primitive values; undefined ones are left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

/** The span a traced step runs in. Without tracing, setting attributes costs nothing. */
export interface ActiveSpan {
  /** Adds what was learned while the step ran (how many it found, which path it took). */
  setAttributes(attributes: SpanAttributes): void;
}

/**
 * The timed phases of a recall, in pipeline order (see RecallService): query rewrite, query embedding, the arms
 * (dense covers the vector and fact arms, which share one index search), fusion, the graph arm, ranking (with the
 * reads of conversation neighbours), association expansion, rerank, and reading the results. A phase that does not
 * run for a request (no rewrite without conversation context) is not measured.
 */
export const RECALL_PHASES = [
  'rewrite',
  'embed_query',
  'dense',
  'keyword',
  'entity',
  'temporal',
  'fusion',
  'graph',
  'rank',
  'expansion',
  'rerank',
  'present',
] as const;
export type RecallPhase = (typeof RECALL_PHASES)[number];

/** Queued tasks run as one unit, as telemetry sees them: one task, or a batch of one kind. */
export interface TaskIdentity {
  kind: string;
  ids: readonly number[];
}

export interface Telemetry {
  /** Runs `work` as a step of a pipeline with no metric of its own: a span named `name` when tracing is on. */
  span<T>(name: string, work: (span: ActiveSpan) => Promise<T>, attributes?: SpanAttributes): Promise<T>;
  /** A phase of a recall: its duration is measured (per phase) and traced as the span `recall.<phase>`. */
  recallPhase<T>(phase: RecallPhase, work: () => Promise<T>): Promise<T>;
  /** The same for a phase that does not wait for anything (fusion). */
  recallPhaseSync<T>(phase: RecallPhase, work: () => T): T;
  /** A recall was answered from the cache (`hit`) or computed. */
  recallCache(hit: boolean): void;
  /**
   * Runs queued tasks (one, or a batch of one kind): timed per kind (each task of a batch counts the batch's time
   * divided by its size), traced as a root span `task <kind>`, and every log line written while it runs names the
   * task (the first of a batch, and the batch's size).
   */
  task<T>(task: TaskIdentity, work: () => Promise<T>): Promise<T>;
  /** A task failed: `final` when it will not be retried. */
  taskFailed(kind: string, final: boolean): void;
}

const noSpan: ActiveSpan = { setAttributes: () => undefined };

/** Telemetry that records nothing: the default for services built without observability (unit tests, tools). */
export const noTelemetry: Telemetry = {
  span: (_name, work) => work(noSpan),
  recallPhase: (_phase, work) => work(),
  recallPhaseSync: (_phase, work) => work(),
  recallCache: () => undefined,
  task: (_task, work) => work(),
  taskFailed: () => undefined,
};
