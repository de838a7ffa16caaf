import { baseUrl, integer, text, type SettingValues } from '../setting.js';

/** Audio uploads go to any OpenAI-compatible `POST /audio/transcriptions`; without a base URL audio is refused. */
export const TRANSCRIPTION = {
  baseUrl: baseUrl({
    name: 'MEMD_TRANSCRIPTION_BASE_URL',
    meaning:
      'audio uploads (mp3, wav, m4a, ogg, webm, flac) are transcribed by any OpenAI-compatible `POST …/audio/transcriptions` (OpenAI, a whisper server, the embedding peer forwarding to one); unset, an audio upload answers 501',
  }),
  model: text({
    name: 'MEMD_TRANSCRIPTION_MODEL',
    default: 'whisper-1',
    accepts: 'model id',
    meaning: 'the model sent (with the embedding peer: a profile)',
  }),
  apiKey: text({ name: 'MEMD_TRANSCRIPTION_API_KEY', accepts: 'secret', meaning: 'sent as `Authorization: Bearer`' }),
  timeoutMs: integer({
    name: 'MEMD_TRANSCRIPTION_TIMEOUT_MS',
    default: 600_000,
    min: 1_000,
    max: 3_600_000,
    meaning: 'deadline of one transcription',
  }),
};

export type TranscriptionConfig = SettingValues<typeof TRANSCRIPTION>;
