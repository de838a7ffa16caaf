/**
 * The OpenTelemetry SDK behind `Tracing`. Loaded (dynamically, by tracing.ts) only when the OTEL_* variables switch
 * tracing on, so that a server without tracing never loads the SDK.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { parseTraceParent } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../config.js';
import type { ActiveSpan, SpanAttributes } from '../core/telemetry.js';
import { AppError } from '../errors.js';
import type { RequestSpan, SpanKindName, SpanOptions, Tracing } from './tracing.js';

const KINDS: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
};

/** OpenTelemetry drops (with a diagnostic) attributes whose value is undefined; they are left out here instead. */
function defined(attributes: SpanAttributes | undefined): Record<string, string | number | boolean> {
  const kept: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) if (value !== undefined) kept[key] = value;
  return kept;
}

const activeSpan = (span: Span): ActiveSpan => ({
  setAttributes: (attributes) => span.setAttributes(defined(attributes)),
});

/** A failed step: the span says so, with the error's code (`error.type`, as the semantic conventions name it). */
function markFailed(span: Span, error: unknown): void {
  const type = error instanceof AppError ? error.code : error instanceof Error ? error.name : 'error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

function sampler({ root, ratio, parentBased }: TracingConfig['sampler']): Sampler {
  const forRoots =
    root === 'always_on'
      ? new AlwaysOnSampler()
      : root === 'always_off'
        ? new AlwaysOffSampler()
        : new TraceIdRatioBasedSampler(ratio);
  return parentBased ? new ParentBasedSampler({ root: forRoots }) : forRoots;
}

async function exporter(config: TracingConfig): Promise<SpanExporter> {
  const options = { url: config.endpoint, headers: config.headers };
  if (config.protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options);
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(options);
}

export async function openTelemetryTracing(config: TracingConfig): Promise<Tracing> {
  const provider = new TracerProvider({
    resource: resourceFromAttributes(config.resource),
    sampler: sampler(config.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter: await exporter(config) })],
  });
  const tracer = provider.getTracer('memd');
  // The active span's context, per asynchronous flow. Kept here rather than in OpenTelemetry's global context
  // manager, so that several servers in one process (tests) each trace on their own.
  const active = new AsyncLocalStorage<Context>();

  const start = (name: string, options: SpanOptions): { span: Span; context: Context } => {
    const parent = options.root ? ROOT_CONTEXT : (active.getStore() ?? ROOT_CONTEXT);
    const span = tracer.startSpan(
      name,
      { kind: KINDS[options.kind ?? 'internal'], attributes: defined(options.attributes) },
      parent,
    );
    return { span, context: trace.setSpan(parent, span) };
  };

  return {
    enabled: true,
    inSpan(name, options, work) {
      const { span, context } = start(name, options);
      return active.run(context, async () => {
        try {
          return await work(activeSpan(span));
        } catch (error) {
          markFailed(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    inSpanSync(name, options, work) {
      const { span, context } = start(name, options);
      return active.run(context, () => {
        try {
          return work(activeSpan(span));
        } catch (error) {
          markFailed(span, error);
          throw error;
        } finally {
          span.end();
        }
      });
    },
    startRequest(name, traceparent, attributes): RequestSpan {
      const remote = traceparent ? parseTraceParent(traceparent) : null;
      const parent = remote ? trace.setSpanContext(ROOT_CONTEXT, { ...remote, isRemote: true }) : ROOT_CONTEXT;
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: defined(attributes) }, parent);
      const context = trace.setSpan(parent, span);
      return {
        enter: (work) => active.run(context, work),
        end(statusCode, route) {
          span.setAttribute('http.response.status_code', statusCode);
          if (route) span.setAttribute('http.route', route);
          // Server spans fail on 5xx only: a 4xx is the client's error, answered as it should be.
          if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}
