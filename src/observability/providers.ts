import { decorateEmbedder } from '../providers/embedding/decorate.js';
import type { EmbeddingProvider } from '../providers/embedding/types.js';
import type { LlmProvider } from '../providers/llm/types.js';
import type { Metrics, Outcome } from './metrics.js';
import type { Tracing } from './tracing.js';

const seconds = (since: number): number => (performance.now() - since) / 1000;

/** `gen_ai.provider.name` values of the OpenTelemetry semantic conventions, by our provider family. */
const GEN_AI_PROVIDER: Record<string, string> = { openai: 'openai', anthropic: 'anthropic', google: 'gcp.gemini' };

/**
 * The language model, measured (latency, outcome, tokens) and traced: one client span per call, named and
 * attributed as the OpenTelemetry GenAI conventions say (`chat <model>`, gen_ai.*).
 */
export function instrumentedLlm(llm: LlmProvider, metrics: Metrics, tracing: Tracing): LlmProvider {
  const labels = { provider: llm.name, model: llm.model };
  const system = GEN_AI_PROVIDER[llm.name] ?? llm.name;
  return {
    name: llm.name,
    model: llm.model,
    complete: (request) =>
      tracing.inSpan(
        `chat ${llm.model}`,
        {
          kind: 'client',
          attributes: {
            'gen_ai.operation.name': 'chat',
            // gen_ai.system is the older name of gen_ai.provider.name; backends read one or the other.
            'gen_ai.system': system,
            'gen_ai.provider.name': system,
            'gen_ai.request.model': llm.model,
            'gen_ai.request.max_tokens': request.maxOutputTokens,
            'gen_ai.request.temperature': request.temperature,
            'gen_ai.output.type': request.json ? 'json' : 'text',
          },
        },
        async (span) => {
          const started = performance.now();
          let outcome: Outcome = 'error';
          let tokens = { input: undefined as number | undefined, output: undefined as number | undefined };
          try {
            const response = await llm.complete(request);
            outcome = 'ok';
            tokens = { input: response.inputTokens, output: response.outputTokens };
            span.setAttributes({
              'gen_ai.usage.input_tokens': response.inputTokens,
              'gen_ai.usage.output_tokens': response.outputTokens,
            });
            return response;
          } finally {
            metrics.llm(labels, outcome, seconds(started), tokens);
          }
        },
      ),
  };
}

/** The embedding model, measured (latency, outcome, texts) and traced (`embeddings <model>`, gen_ai.*). */
export function instrumentedEmbedder(
  embedder: EmbeddingProvider,
  metrics: Metrics,
  tracing: Tracing,
): EmbeddingProvider {
  return decorateEmbedder(embedder, {
    // An empty batch (a write whose texts were all duplicates) reaches no model: not a call.
    embed: (texts) =>
      texts.length === 0
        ? embedder.embed(texts)
        : tracing.inSpan(
            `embeddings ${embedder.model}`,
            {
              kind: 'client',
              attributes: {
                'gen_ai.operation.name': 'embeddings',
                'gen_ai.provider.name': embedder.name,
                'gen_ai.request.model': embedder.model,
                'memd.embedding.texts': texts.length,
              },
            },
            async () => {
              const started = performance.now();
              let outcome: Outcome = 'error';
              try {
                const vectors = await embedder.embed(texts);
                outcome = 'ok';
                return vectors;
              } finally {
                metrics.embedding(
                  { provider: embedder.name, model: embedder.model },
                  outcome,
                  seconds(started),
                  texts.length,
                );
              }
            },
          ),
  });
}
