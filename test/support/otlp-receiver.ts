/**
 * An OTLP/HTTP trace receiver for tests: accepts what an OpenTelemetry exporter POSTs to /v1/traces and records the
 * spans. JSON exports (http/json) are decoded span by span; protobuf exports (http/protobuf) are kept as raw bodies.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  /** OTLP's enum: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  /** Give this to the server as OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Bodies of protobuf exports, with their content type. */
  protobufExports: Array<{ contentType: string; body: Buffer }>;
  close(): Promise<void>;
}

interface OtlpKeyValue {
  key: string;
  value: { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };
}

function attributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const { key, value } of list ?? []) {
    // OTLP/JSON may write 64-bit integers as strings.
    out[key] = value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue);
  }
  return out;
}

function read(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const protobufExports: OtlpReceiver['protobufExports'] = [];
  const server = createServer(async (request, response) => {
    const body = await read(request);
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    const contentType = request.headers['content-type'] ?? '';
    if (contentType.includes('json')) {
      const exported = JSON.parse(body.toString('utf8')) as {
        resourceSpans: Array<{
          resource?: { attributes?: OtlpKeyValue[] };
          scopeSpans: Array<{ spans: Array<Record<string, any>> }>;
        }>;
      };
      for (const { resource, scopeSpans } of exported.resourceSpans) {
        for (const { spans: batch } of scopeSpans) {
          for (const span of batch) {
            spans.push({
              name: span.name,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              kind: span.kind,
              attributes: attributes(span.attributes),
              statusCode: span.status?.code ?? 0,
              resource: attributes(resource?.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    } else {
      protobufExports.push({ contentType, body });
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    protobufExports,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
