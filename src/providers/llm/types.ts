/** A chat message sent to a language model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  /** Instructions that frame the task. */
  system?: string;
  /**
   * The conversation; the last message is normally the user's prompt. System turns may only lead
   * it (Anthropic and Gemini refuse them later, so every provider does).
   */
  messages: LlmMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  /**
   * Ask for a JSON answer. The prompt always gains a JSON-only instruction; OpenAI-compatible
   * endpoints and Gemini also enforce it natively (OpenAI's JSON mode only admits an object at the
   * top level, so ask for an object). Models still wrap JSON in prose or fences at times:
   * parse the answer with `completeJson`, not `JSON.parse`.
   */
  json?: boolean;
  /** Cancels the call; `complete` then rejects with the signal's reason, not with an AppError. */
  signal?: AbortSignal;
}

export interface LlmResponse {
  /** The answer; never empty (an empty answer is a `provider_error`). */
  text: string;
  /** As reported by the upstream; undefined when it reports no usage. */
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/**
 * A language model behind one interface. Failures surface as AppError:
 * `provider_error` (502) when the upstream answered badly or timed out after retries,
 * `provider_unavailable` (503) when no model is configured.
 *
 * `complete` is bounded: it settles within the configured timeout, retries included.
 */
export interface LlmProvider {
  /** Provider family: `openai`, `anthropic` or `google`. */
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}
