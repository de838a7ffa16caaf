import { Type } from 'typebox';
import { AppError } from '../errors.js';
import { StringEnum } from '../http/schemas/common.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import { estimateTokens } from '../core/text/index.js';
import { modelNotFound } from './errors.js';
import type { Hosted } from './hosted.js';
import type { PeerApp } from './server.js';

/** An embedding provider the peer serves. */
export type HostedEmbedder = Hosted<EmbeddingProvider>;

const EmbeddingsBody = Type.Object({
  input: Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1, maxItems: 2048 })], {
    description: 'a text or up to 2048 texts (token arrays are not accepted)',
  }),
  model: Type.Optional(
    Type.String({ description: 'a provider name (`local`, `hash`, …) or its model id; default: the first provider' }),
  ),
  encoding_format: Type.Optional(StringEnum(['float', 'base64'] as const)),
  dimensions: Type.Optional(Type.Integer({ minimum: 1, description: 'accepted when it is the model’s own width' })),
  user: Type.Optional(Type.String()),
});

/** Little-endian float32, base64: what OpenAI's `encoding_format: base64` returns (and its SDKs ask for). */
const base64 = (vector: Float32Array): string =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');

/** OpenAI-compatible `POST /v1/embeddings`, so memd's `openai` embedding provider (or any OpenAI client) can use the peer. */
export function embeddingRoutes(app: PeerApp, embedders: readonly HostedEmbedder[]): void {
  const find = (model: string | undefined): HostedEmbedder => {
    const hosted =
      model === undefined
        ? embedders[0]
        : embedders.find((e) => e.provider.name === model || e.provider.model === model);
    if (!hosted)
      throw modelNotFound(
        model ?? '',
        embedders.map((e) => e.provider.name),
      );
    if (hosted.state !== 'ready')
      throw new AppError(
        'not_ready',
        `model '${hosted.provider.model}' is ${hosted.state === 'loading' ? 'still loading' : `unavailable: ${hosted.error}`}`,
      );
    return hosted;
  };

  app.post(
    '/v1/embeddings',
    { schema: { tags: ['embeddings'], summary: 'Embed texts (OpenAI-compatible)', body: EmbeddingsBody } },
    async (request) => {
      const { input, model, encoding_format, dimensions } = request.body;
      const hosted = find(model);
      const { provider } = hosted;
      if (dimensions !== undefined && dimensions !== provider.dimensions) {
        throw new AppError(
          'bad_request',
          `model '${provider.model}' gives ${provider.dimensions}-dimensional vectors, not ${dimensions}`,
        );
      }
      const texts = typeof input === 'string' ? [input] : input;
      const vectors = await hosted.load.run(() => provider.embed(texts));
      const tokens = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
      return {
        object: 'list',
        data: vectors.map((vector, index) => ({
          object: 'embedding',
          index,
          embedding: encoding_format === 'base64' ? base64(vector) : Array.from(vector),
        })),
        model: provider.model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
  );
}
