import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config.js';
import type { ActiveSpan, RecallPhase, SpanAttributes, TaskIdentity, Telemetry } from '../core/telemetry.js';
import { withLogger, type ContextLogger } from './log-context.js';
import { Metrics, type GaugeSources, type Outcome } from './metrics.js';
import { startTracing, type Tracing } from './tracing.js';

export { contextualLogger, type ContextLogger } from './log-context.js';
export { instrumentedEmbedder, instrumentedLlm } from './providers.js';
export type { Metrics } from './metrics.js';
export type { Tracing } from './tracing.js';

const seconds = (since: number): number => (performance.now() - since) / 1000;

/** How long a stop waits for the last spans to reach the collector. */
const LAST_SPANS_WAIT_MS = 3_000;

/** Prometheus metrics and OpenTelemetry traces of one server: the `Telemetry` the core reports to. */
export class Observability implements Telemetry {
  constructor(
    readonly metrics: Metrics,
    readonly tracing: Tracing,
    /** Background tasks log through a child of it that names the task. */
    private readonly log: ContextLogger,
  ) {}

  span<T>(name: string, work: (span: ActiveSpan) => Promise<T>, attributes?: SpanAttributes): Promise<T> {
    return this.tracing.inSpan(name, { attributes }, work);
  }

  recallPhase<T>(phase: RecallPhase, work: () => Promise<T>): Promise<T> {
    const timed = async (): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        this.metrics.recallPhase(phase, seconds(started));
      }
    };
    return this.tracing.enabled ? this.tracing.inSpan(`recall.${phase}`, {}, timed) : timed();
  }

  recallPhaseSync<T>(phase: RecallPhase, work: () => T): T {
    const timed = (): T => {
      const started = performance.now();
      try {
        return work();
      } finally {
        this.metrics.recallPhase(phase, seconds(started));
      }
    };
    return this.tracing.enabled ? this.tracing.inSpanSync(`recall.${phase}`, {}, timed) : timed();
  }

  recallCache(hit: boolean): void {
    this.metrics.recallCache(hit);
  }

  task<T>({ kind, ids }: TaskIdentity, work: () => Promise<T>): Promise<T> {
    const batch = ids.length > 1 ? { batch: ids.length } : {};
    const attributes = { 'memd.task.id': ids[0], 'memd.task.kind': kind, 'memd.task.batch': ids.length };
    return withLogger(this.log.child({ task: ids[0], kind, ...batch }), () =>
      this.tracing.inSpan(`task ${kind}`, { root: true, attributes }, async () => {
        const started = performance.now();
        let outcome: Outcome = 'error';
        try {
          const result = await work();
          outcome = 'ok';
          return result;
        } finally {
          this.metrics.task(kind, outcome, seconds(started), ids.length);
        }
      }),
    );
  }

  taskFailed(kind: string, final: boolean): void {
    this.metrics.taskFailed(kind, final);
  }

  /**
   * Exports the spans still buffered (at shutdown), for a few seconds at most. Spans that cannot be delivered (a
   * collector down) are lost with a warning: they are no reason to fail or hold up a stop.
   */
  async shutdown(): Promise<void> {
    const exported = this.tracing
      .shutdown()
      .catch((error: unknown) =>
        this.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'exporting the last spans failed',
        ),
      );
    await Promise.race([exported, sleep(LAST_SPANS_WAIT_MS, undefined, { ref: false })]);
  }
}

/** Metrics always (they cost next to nothing); tracing when the OTEL_* variables switch it on. */
export async function createObservability(
  config: Config,
  log: ContextLogger,
  gauges: GaugeSources,
): Promise<Observability> {
  return new Observability(new Metrics(gauges), await startTracing(config.tracing), log);
}
