import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadDocument } from '../support/documents.js';
import { startFakeTranscription, tinyWav, type FakeTranscriptionServer } from '../support/fake-transcription-server.js';
import { startPeer, type TestPeer } from '../support/peer.js';
import { client, memdClient, startServer, type TestServer } from '../support/server.js';

let fake: FakeTranscriptionServer;
beforeAll(async () => {
  fake = await startFakeTranscription();
});
afterAll(() => fake.close());

const SPOKEN = 'Welcome to the Tuesday planning call.\n\nWe agreed to ship the harbour map in June.';

async function ingestAudio(server: TestServer, name = 'call.wav') {
  const accepted = await uploadDocument(server.url, { name, bytes: tinyWav() });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  await server.drainTasks();
  const api = client(server.url);
  const { document, job } = (await api.get(`/v1/documents/${accepted.body.document.id}`)).body;
  return { document, job, pages: (await api.get(`/v1/documents/${document.id}/pages`)).body.pages };
}

describe('audio transcription', () => {
  it('without a transcription endpoint an audio upload is a 501 that says how to enable it', async () => {
    const server = await startServer();
    try {
      for (const name of ['call.wav', 'call.mp3', 'call.m4a', 'call.ogg', 'call.webm']) {
        const refused = await uploadDocument(server.url, { name, bytes: Buffer.from('audio bytes') });
        expect(refused.status, name).toBe(501);
        expect(refused.body).toMatchObject({
          code: 'not_implemented',
          message: expect.stringContaining('MEMD_TRANSCRIPTION_BASE_URL'),
        });
      }
      expect((await client(server.url).get('/v1/documents')).body.total_count).toBe(0);
    } finally {
      await server.stop();
    }
  });

  it('transcribes through the configured OpenAI-compatible endpoint; pages and memories come from the transcript', async () => {
    const server = await startServer({
      env: {
        MEMD_TRANSCRIPTION_BASE_URL: fake.baseUrl,
        MEMD_TRANSCRIPTION_MODEL: 'whisper-small',
        MEMD_TRANSCRIPTION_API_KEY: 'speech-key',
      },
    });
    try {
      fake.replies.push({ status: 200, body: { text: SPOKEN } });
      const { document, job, pages } = await ingestAudio(server);
      expect(job).toMatchObject({ status: 'completed', error: null });
      expect(document).toMatchObject({
        document_type: 'audio',
        mime_type: 'audio/wav',
        page_count: 1,
        memory_count: 1,
      });
      expect(pages).toMatchObject([
        { page_no: 1, transcript: SPOKEN, transcript_model: 'whisper-small', transcript_confidence: null },
      ]);
      const request = fake.requests.at(-1)!;
      expect(request).toMatchObject({
        path: '/v1/audio/transcriptions',
        fields: { model: 'whisper-small', response_format: 'json' },
        file: { name: 'call.wav', type: 'audio/wav' },
      });
      expect(request.file!.bytes.equals(tinyWav())).toBe(true);
      expect(request.headers.authorization).toBe('Bearer speech-key');

      fake.replies.push({ status: 500, body: { error: { message: 'decoder crashed' } } });
      const failed = await ingestAudio(server, 'broken.wav');
      expect(failed.job.error).toEqual({
        code: 'transcription_failed',
        message: expect.stringContaining('decoder crashed'),
      });
    } finally {
      await server.stop();
    }
  });

  it('the peer forwards /v1/audio/transcriptions to the profile the model names, like chat', async () => {
    const peer: TestPeer = await startPeer({
      MEMD_PEER_LLM_ENABLED: 'true',
      MEMD_PEER_LLM_PROFILES: 'speech',
      MEMD_PEER_LLM_SPEECH_BASE_URL: fake.baseUrl,
      MEMD_PEER_LLM_SPEECH_MODEL: 'whisper-large-v3',
      MEMD_PEER_LLM_SPEECH_ALIASES: 'whisper-1',
    });
    const server = await startServer({
      env: { MEMD_TRANSCRIPTION_BASE_URL: `${peer.url}/v1`, MEMD_TRANSCRIPTION_MODEL: 'whisper-1' },
    });
    const disabled = await startPeer();
    try {
      fake.replies.push({ status: 200, body: { text: SPOKEN } });
      const { pages } = await ingestAudio(server);
      expect(pages[0]).toMatchObject({ transcript: SPOKEN, transcript_model: 'whisper-1' });
      // The alias became the upstream's model id; the rest of the form went as sent.
      expect(fake.requests.at(-1)).toMatchObject({
        fields: { model: 'whisper-large-v3', response_format: 'json' },
        file: { name: 'call.wav', type: 'audio/wav' },
      });
      const form = new FormData();
      form.append('file', new Blob([tinyWav()], { type: 'audio/wav' }), 'a.wav');
      const off = await memdClient(disabled.url).request<any>('POST', '/v1/audio/transcriptions', { body: form });
      expect([off.status, off.data.error.code]).toEqual([501, 'not_implemented']);
    } finally {
      await server.stop();
      await peer.stop();
      await disabled.stop();
    }
  });
});
