import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-llm-server.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { client, startServer } from '../support/server.js';
import { providerFor } from '../providers/llm/setup.js';

const SERVER = 2;
const CLIENT = 3;
const ERROR = 2;

/** The one span named `name` (fails when there is none, or several). */
function only(spans: readonly ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((s) => s.name === name);
  expect(
    found.map((s) => s.name),
    `spans named ${name}`,
  ).toEqual([name]);
  return found[0]!;
}

const childrenOf = (spans: readonly ReceivedSpan[], parent: ReceivedSpan): string[] =>
  spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId).map((s) => s.name);

describe('traces exported over OTLP when the OTEL_* variables switch them on', () => {
  let receiver: OtlpReceiver;
  let fake: FakeLlmServer;
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const callerSpanId = '00f067aa0ba902b7';
  let recallRequestId: string | null;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // Enrichment asks the model to file each memory; '{}' leaves the rule-based values.
    fake = await startFakeOpenAI({ respond: () => '{}' });
    const server = await startServer({
      env: {
        OTEL_TRACES_EXPORTER: 'otlp',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'memd-under-test',
        MEMD_LLM_PROVIDER: 'openai',
        MEMD_LLM_BASE_URL: fake.baseUrl,
        MEMD_LLM_MODEL: 'test-model',
        MEMD_RECALL_RERANKER: 'llm',
      },
      llm: providerFor({ baseUrl: fake.baseUrl, maxRetries: 0 }),
    });
    const api = client(server.url);
    await api.post('/v1/memories', { content: 'Garden party planning: order chairs and a tent.' });
    await api.post('/v1/memories', { content: 'Garden party guests: invite the neighbours too.' });
    await server.drainTasks();
    // Half the query's words match: under a rag_threshold of 0.9 the model reranks.
    fake.script({ text: JSON.stringify({ ranking: [2, 1] }), inputTokens: 42, outputTokens: 7 });
    const recalled = await api.post(
      '/v1/memories/recall',
      { query: 'garden party menu ideas', rag_threshold: 0.9 },
      { traceparent: `00-${traceId}-${callerSpanId}-01` },
    );
    expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
    expect(recalled.body.mode_used).toBe('hybrid');
    recallRequestId = recalled.headers.get('x-request-id');
    fake.script({ status: 400, message: 'bad request' });
    await api.post('/v1/memories/reflect', { query: 'garden party' });
    // Stopping flushes the spans still batched.
    await server.stop();
    spans = receiver.spans;
  });
  afterAll(async () => {
    await receiver.close();
    await fake.close();
  });

  it('exports a server span per request that continues the caller trace', () => {
    const http = only(spans, 'POST /v1/memories/recall');
    expect(http).toMatchObject({ kind: SERVER, traceId, parentSpanId: callerSpanId });
    expect(http.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/memories/recall',
      'http.response.status_code': 200,
      'memd.request_id': recallRequestId,
    });
    expect(http.resource['service.name']).toBe('memd-under-test');
  });

  it('nests a span per recall phase under the recall span', () => {
    // Reflect recalls too: the recall of the recall request is the one under its span.
    const recalls = spans.filter(
      (s) => s.name === 'recall' && s.parentSpanId === only(spans, 'POST /v1/memories/recall').spanId,
    );
    expect(recalls).toHaveLength(1);
    const recall = recalls[0]!;
    expect(recall.attributes).toMatchObject({ 'memd.recall.cached': false, 'memd.recall.mode': 'hybrid' });
    expect(childrenOf(spans, recall)).toEqual(
      expect.arrayContaining([
        'recall.embed_query',
        'recall.dense',
        'recall.keyword',
        'recall.fusion',
        'recall.graph',
        'recall.rank',
        'recall.expansion',
        'recall.rerank',
        'recall.present',
      ]),
    );
  });

  it('traces the model call of the rerank with the gen_ai conventions', () => {
    const rerank = only(spans, 'recall.rerank');
    const chats = spans.filter((s) => s.parentSpanId === rerank.spanId);
    expect(chats.map((s) => s.name)).toEqual(['chat test-model']);
    expect(chats[0]!.kind).toBe(CLIENT);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'openai',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'gen_ai.request.temperature': 0,
      'gen_ai.usage.input_tokens': 42,
      'gen_ai.usage.output_tokens': 7,
    });
  });

  it('marks a failed model call as an error with its type', () => {
    const reflect = only(spans, 'POST /v1/memories/reflect');
    const failed = spans.filter((s) => s.traceId === reflect.traceId && s.name === 'chat test-model');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.statusCode).toBe(ERROR);
    expect(failed[0]!.attributes['error.type']).toBe('provider_error');
  });

  it('traces the write pipeline and the background enrichment steps', () => {
    const writes = spans.filter((s) => s.name === 'memory.write');
    expect(writes).toHaveLength(2);
    for (const write of writes) {
      expect(childrenOf(spans, write).sort()).toEqual([
        'embeddings feature-hash-v1',
        'memory.write.commit',
        'memory.write.dedup',
      ]);
      expect(spans.find((s) => s.spanId === write.parentSpanId)?.name).toBe('POST /v1/memories');
    }
    const embedding = spans.find(
      (s) => s.name === 'embeddings feature-hash-v1' && s.parentSpanId === writes[0]!.spanId,
    )!;
    expect(embedding.attributes).toMatchObject({
      'gen_ai.operation.name': 'embeddings',
      'gen_ai.request.model': 'feature-hash-v1',
      'memd.embedding.texts': 1,
    });

    // The two writes' enrichment tasks run as one batch: one root span, each memory refined in it.
    const tasks = spans.filter((s) => s.name === 'task memory.enrich');
    expect(tasks).toHaveLength(1);
    const task = tasks[0]!;
    expect(task.parentSpanId).toBe('');
    expect(task.attributes['memd.task.batch']).toBe(2);
    expect(childrenOf(spans, task).sort()).toEqual([
      'memory.enrich.associate',
      'memory.enrich.contradictions',
      'memory.enrich.decompose',
      'memory.enrich.neighbours',
      'memory.enrich.refine',
      'memory.enrich.refine',
      'memory.enrich.write',
    ]);
    for (const refine of spans.filter((s) => s.name === 'memory.enrich.refine' && s.parentSpanId === task.spanId))
      expect(childrenOf(spans, refine)).toEqual(['chat test-model']);
  });
});

describe('the OTLP protocol', () => {
  it('exports protobuf to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces by default', async () => {
    const receiver = await startOtlpReceiver();
    const server = await startServer({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint.replace('/v1/traces', '') },
    });
    expect((await client(server.url).get('/health')).status).toBe(200);
    await server.stop();
    await receiver.close();
    expect(receiver.protobufExports.length).toBeGreaterThan(0);
    expect(receiver.protobufExports[0]!.contentType).toBe('application/x-protobuf');
    // Protobuf writes strings as they are: the span's name is in the body.
    expect(Buffer.concat(receiver.protobufExports.map((e) => e.body)).includes('GET /health')).toBe(true);
  });
});

describe('tracing off', () => {
  const probe = fileURLToPath(new URL('../support/loaded-modules-probe.ts', import.meta.url));
  const loadedModules = (env: Record<string, string>): Promise<string[]> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', probe], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) =>
        code === 0
          ? resolve(JSON.parse(output) as string[])
          : reject(new Error(`probe exited with ${code}: ${output}`)),
      );
    });

  // Two processes each transpile and load the whole server: 40 s alone at load 20, past the default 60 s in a full run.
  it('loads no OpenTelemetry SDK, while switched on loads it', { timeout: 180_000 }, async () => {
    const receiver = await startOtlpReceiver();
    try {
      const [off, on] = await Promise.all([
        loadedModules({}),
        loadedModules({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.endpoint }),
      ]);
      // The AI SDK imports the OpenTelemetry API, which does nothing without an SDK.
      expect(off.filter((name) => name !== '@opentelemetry/api')).toEqual([]);
      expect(on).toEqual(
        expect.arrayContaining(['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-proto']),
      );
    } finally {
      await receiver.close();
    }
  });
});
