import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: { model?: unknown; input?: unknown };
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** What the fake does with the n-th request (0-based): answer, or never answer. */
export type Script = (request: RecordedRequest, index: number) => Reply | 'hang';

export interface FakeServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An HTTP server on a free port that records every request and answers as `script` says. */
export async function startFakeServer(script: Script): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RecordedRequest['body'],
      };
      requests.push(request);
      const reply = script(request, requests.length - 1);
      if (reply === 'hang') return;
      const payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Answers like OpenAI, with `vectorFor` of each input, deliberately not normalised and listed in
 * reverse order (clients must use `index`).
 */
export function embeddingsReply(request: RecordedRequest, vectorFor: (text: string) => number[]): Reply {
  const inputs = request.body.input as string[];
  const data = inputs.map((text, index) => ({
    object: 'embedding',
    index,
    embedding: vectorFor(text).map((value) => value * 3),
  }));
  return {
    status: 200,
    body: {
      object: 'list',
      model: request.body.model,
      data: data.reverse(),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    },
  };
}
