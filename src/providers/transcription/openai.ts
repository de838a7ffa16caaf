import type { TranscriptionConfig } from '../../config.js';

export interface Transcript {
  text: string;
  /** The model that transcribed it; recorded as the pages' `transcript_model`. */
  model: string;
}

/** An audio file that could not be transcribed; the ingestion job reports the message. */
export class TranscriptionProblem extends Error {
  override name = 'TranscriptionProblem';
}

/**
 * Speech to text through any OpenAI-compatible `POST /audio/transcriptions` (OpenAI, a whisper.cpp or
 * faster-whisper server, vLLM, the embedding peer forwarding to one of those): the file as multipart with `model`
 * and `response_format=json`, the answer's `text` taken. One attempt bounded by MEMD_TRANSCRIPTION_TIMEOUT_MS.
 */
export class OpenAiTranscriber {
  readonly model: string;
  readonly #endpoint: string;

  constructor(private readonly config: TranscriptionConfig & { baseUrl: string }) {
    this.model = config.model;
    this.#endpoint = `${config.baseUrl}/audio/transcriptions`;
  }

  async transcribe(audio: Uint8Array, filename: string, mimeType: string): Promise<Transcript> {
    const form = new FormData();
    form.append('file', new Blob([audio], { type: mimeType }), filename);
    form.append('model', this.model);
    form.append('response_format', 'json');
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: form,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      if ((error as Error).name === 'TimeoutError')
        throw new TranscriptionProblem(
          `the transcription endpoint did not answer within ${this.config.timeoutMs} ms (MEMD_TRANSCRIPTION_TIMEOUT_MS)`,
        );
      const cause = (error as Error).cause as Error | undefined;
      throw new TranscriptionProblem(
        `the transcription endpoint ${this.#endpoint} failed: ${cause?.message ?? (error as Error).message}`,
      );
    }
    const body = parseJson(text);
    if (!response.ok) {
      const message = typeof body?.error?.message === 'string' ? body.error.message : text.slice(0, 200);
      throw new TranscriptionProblem(`the transcription endpoint answered HTTP ${response.status}: ${message}`);
    }
    if (typeof body?.text !== 'string')
      throw new TranscriptionProblem(`the transcription endpoint ${this.#endpoint} answered without a \`text\` field`);
    return { text: body.text, model: this.model };
  }
}

/** The JSON body, or null when it is not JSON (reported with the status). */
function parseJson(text: string): { text?: unknown; error?: { message?: unknown } } | null {
  try {
    return JSON.parse(text) as { text?: unknown; error?: { message?: unknown } } | null;
  } catch {
    return null;
  }
}

/** The configured transcriber, or null when MEMD_TRANSCRIPTION_BASE_URL is unset (audio uploads are then refused). */
export function createTranscriber(config: TranscriptionConfig): OpenAiTranscriber | null {
  return config.baseUrl ? new OpenAiTranscriber({ ...config, baseUrl: config.baseUrl }) : null;
}
