import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TranscriptionRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The multipart form's text fields. */
  fields: Record<string, string>;
  file: { name: string; type: string; bytes: Buffer } | null;
}

export interface FakeTranscriptionServer {
  /** Ends before /audio/transcriptions, like OpenAI's https://api.openai.com/v1. */
  baseUrl: string;
  requests: TranscriptionRequest[];
  /** The next answers, in order; then `{text: 'fallback transcript'}`. */
  replies: Array<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

/** A stand-in for an OpenAI-compatible speech-to-text server: records each multipart request and answers from a script. */
export async function startFakeTranscription(): Promise<FakeTranscriptionServer> {
  const requests: TranscriptionRequest[] = [];
  const replies: FakeTranscriptionServer['replies'] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // The platform's own multipart parser reads the form.
    const form = await new Request('http://fake', {
      method: 'POST',
      headers: req.headers as Record<string, string>,
      body: Buffer.concat(chunks),
    }).formData();
    const fields: Record<string, string> = {};
    let file: TranscriptionRequest['file'] = null;
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    requests.push({ path: req.url ?? '', headers: req.headers, fields, file });
    const reply = replies.shift() ?? { status: 200, body: { text: 'fallback transcript' } };
    res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    replies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first bytes of a WAV file (RIFF header, PCM format chunk, a little silence): enough to be an audio upload. */
export function tinyWav(): Buffer {
  const samples = Buffer.alloc(800);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}
