/** A chat message sent to a language model. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmRequest {
  /** Instructions that frame the task. */
  system?: string;
  /** The conversation; the last message is normally the user's prompt. */
  messages: LlmMessage[];
  maxOutputTokens?: number;
  temperature?: number;
  /** Ask for a JSON object answer (providers that support it enforce it; others are told so in the prompt). */
  json?: boolean;
  signal?: AbortSignal;
}

export interface LlmResponse {
  text: string;
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

/**
 * A language model behind one interface. Failures surface as AppError:
 * `provider_error` (502) when the upstream answered badly or timed out after retries,
 * `provider_unavailable` (503) when no model is configured.
 */
export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete(request: LlmRequest): Promise<LlmResponse>;
}
