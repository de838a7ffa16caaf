import type { TracingConfig } from '../config.js';
import type { ActiveSpan, SpanAttributes } from '../core/telemetry.js';

export type SpanKindName = 'internal' | 'server' | 'client';

export interface SpanOptions {
  kind?: SpanKindName;
  attributes?: SpanAttributes;
  /** Starts a trace of its own rather than a child of the active span (background tasks). */
  root?: boolean;
}

/** An HTTP request's server span: entered around the request's handlers, ended with its status. */
export interface RequestSpan {
  /** Runs `work` with this span active, so that the spans the request's work starts are its children. */
  enter<T>(work: () => T): T;
  end(statusCode: number, route: string | undefined): void;
}

/**
 * Spans, nested by the asynchronous context they are started in. `disabledTracing` (the default) records nothing
 * and loads nothing; `startTracing` loads the OpenTelemetry SDK only when the OTEL_* variables ask for it.
 */
export interface Tracing {
  readonly enabled: boolean;
  /** Runs `work` in a new span (a child of the active one); a thrown error marks the span failed and is rethrown. */
  inSpan<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => Promise<T>): Promise<T>;
  inSpanSync<T>(name: string, options: SpanOptions, work: (span: ActiveSpan) => T): T;
  /** A server span for an HTTP request, continuing the caller's trace when it sent a W3C `traceparent`. */
  startRequest(name: string, traceparent: string | undefined, attributes: SpanAttributes): RequestSpan;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

const noSpan: ActiveSpan = { setAttributes: () => undefined };
const noRequestSpan: RequestSpan = { enter: (work) => work(), end: () => undefined };

export const disabledTracing: Tracing = {
  enabled: false,
  inSpan: (_name, _options, work) => work(noSpan),
  inSpanSync: (_name, _options, work) => work(noSpan),
  startRequest: () => noRequestSpan,
  shutdown: async () => undefined,
};

/** Tracing as configured: the OpenTelemetry SDK and its OTLP exporter when on, nothing loaded when off. */
export async function startTracing(config: TracingConfig | null): Promise<Tracing> {
  if (!config) return disabledTracing;
  const { openTelemetryTracing } = await import('./otel.js');
  return openTelemetryTracing(config);
}
