import { ConfigError, flag, keyValues, listItems, oneOf, ratio, setting, text, type Env } from '../setting.js';

export const METRICS = {
  enabled: flag({
    name: 'MEMD_METRICS_ENABLED',
    default: true,
    meaning: '`false` removes `GET /metrics` (Prometheus)',
  }),
  key: text({
    name: 'MEMD_METRICS_KEY',
    accepts: 'secret',
    meaning:
      'with `MEMD_ADMIN_KEY` set, `/metrics` takes `Authorization: Bearer` with the admin key or this key (a scrape-only credential); without `MEMD_ADMIN_KEY` it is open like the rest of the API',
  }),
};

/** Where and how spans are exported: OTLP over HTTP, from the standard OTEL_* variables. */
export interface TracingConfig {
  /** The full URL spans are POSTed to (…/v1/traces). */
  endpoint: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  /** Resource attributes: `service.name` (OTEL_SERVICE_NAME, default memd) and OTEL_RESOURCE_ATTRIBUTES. */
  resource: Record<string, string>;
  /** OTEL_TRACES_SAMPLER: which root traces are kept (`ratio` for traceidratio), and whether a caller's choice wins. */
  sampler: { root: 'always_on' | 'always_off' | 'traceidratio'; ratio: number; parentBased: boolean };
}

/** Only OTLP over HTTP is built in: protobuf (the OTLP default) or JSON, case as written. */
const OTLP_PROTOCOL = {
  accepts: '`http/protobuf`, `http/json`',
  parse(raw: string, name: string): TracingConfig['protocol'] {
    if (raw === 'http/protobuf' || raw === 'http/json') return raw;
    throw new ConfigError(`${name} must be http/protobuf or http/json (OTLP over HTTP, port 4318), got '${raw}'`);
  },
};

/**
 * The standard OpenTelemetry variables memd reads. Tracing is off unless they ask for it: OTEL_TRACES_EXPORTER=otlp,
 * or an OTLP endpoint given with no exporter named; OTEL_SDK_DISABLED=true and OTEL_TRACES_EXPORTER=none keep it off.
 */
export const TRACING = {
  disabled: flag({
    name: 'OTEL_SDK_DISABLED',
    default: false,
    meaning: '`true` keeps tracing off whatever else is set',
  }),
  exporters: setting({
    name: 'OTEL_TRACES_EXPORTER',
    accepts: '`otlp`, `none`',
    meaning:
      '`otlp` turns tracing on (to `http://localhost:4318` unless an endpoint is given); `none` keeps it off. Unset: on when an endpoint is given',
    parse(raw) {
      const names = listItems(raw.toLowerCase());
      const unsupported = names.filter((name) => name !== 'otlp' && name !== 'none');
      if (unsupported.length > 0)
        throw new ConfigError(`OTEL_TRACES_EXPORTER: only otlp (or none) is supported, got '${unsupported.join(',')}'`);
      return names;
    },
  }),
  tracesEndpoint: text({
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    accepts: 'URL',
    meaning: 'the URL spans are sent to, as is; turns tracing on',
  }),
  endpoint: text({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    default: 'http://localhost:4318',
    accepts: 'URL',
    meaning:
      'the collector, to which `/v1/traces` is added (when no per-signal endpoint is given); setting it turns tracing on',
  }),
  tracesProtocol: setting({
    name: 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    shownDefault: '`OTEL_EXPORTER_OTLP_PROTOCOL`',
    meaning: 'how spans are sent, over `OTEL_EXPORTER_OTLP_PROTOCOL`',
    ...OTLP_PROTOCOL,
  }),
  protocol: setting({
    name: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    default: 'http/protobuf',
    meaning: 'how spans are sent: OTLP over HTTP (port 4318), protobuf or JSON',
    ...OTLP_PROTOCOL,
  }),
  sampler: oneOf({
    name: 'OTEL_TRACES_SAMPLER',
    values: [
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ] as const,
    default: 'parentbased_always_on',
    meaning: "which traces are kept; `parentbased_*` follows the caller's `traceparent` where there is one",
  }),
  samplerArg: ratio({
    name: 'OTEL_TRACES_SAMPLER_ARG',
    default: 1,
    meaning: 'with `traceidratio`: the share of traces kept',
  }),
  headers: keyValues({
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    meaning: 'headers sent with every export (URL-encoded values)',
  }),
  tracesHeaders: keyValues({
    name: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
    meaning: 'headers sent with span exports, over `OTEL_EXPORTER_OTLP_HEADERS`',
  }),
  resourceAttributes: keyValues({
    name: 'OTEL_RESOURCE_ATTRIBUTES',
    meaning: 'attributes of the resource every span carries',
  }),
  serviceName: text({
    name: 'OTEL_SERVICE_NAME',
    default: 'memd',
    accepts: 'name',
    meaning: '`service.name` of the resource (over one in `OTEL_RESOURCE_ATTRIBUTES`)',
  }),
};

/** Tracing from the OTEL_* variables, or null when they leave it off (nothing more is read then). */
export function tracingConfig(env: Env): TracingConfig | null {
  if (TRACING.disabled.read(env)) return null;
  const exporters = TRACING.exporters.read(env) ?? [];
  const endpointGiven = TRACING.tracesEndpoint.isSet(env) || TRACING.endpoint.isSet(env);
  if (!(exporters.includes('otlp') || (exporters.length === 0 && endpointGiven))) return null;
  const protocol = TRACING.tracesProtocol.read(env) ?? TRACING.protocol.read(env);
  const sampler = TRACING.sampler.read(env);
  const ratio = TRACING.samplerArg.read(env);
  const serviceName = TRACING.serviceName.read(env);
  return {
    // The per-signal variable is the URL itself; the general one is a base to which the signal's path is added.
    endpoint: TRACING.tracesEndpoint.read(env) ?? `${TRACING.endpoint.read(env).replace(/\/+$/, '')}/v1/traces`,
    protocol,
    headers: { ...TRACING.headers.read(env), ...TRACING.tracesHeaders.read(env) },
    // OTEL_SERVICE_NAME, when given, wins over a service.name among the attributes; its default does not.
    resource: {
      'service.name': serviceName,
      ...TRACING.resourceAttributes.read(env),
      ...(TRACING.serviceName.isSet(env) && { 'service.name': serviceName }),
    },
    sampler: {
      root: sampler.replace('parentbased_', '') as TracingConfig['sampler']['root'],
      ratio,
      parentBased: sampler.startsWith('parentbased_'),
    },
  };
}
