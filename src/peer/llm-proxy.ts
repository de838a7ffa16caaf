import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LlmProfile, PeerConfig } from './config.js';
import { AppError } from '../errors.js';
import { modelNotFound } from './errors.js';
import type { ProviderLoad } from './load.js';
import type { PeerApp } from './server.js';

/** Upstream response headers a client needs: what the body is, streaming hints, rate-limit advice. */
const PASSED_HEADERS = ['content-type', 'cache-control', 'retry-after', 'x-request-id'];

export const disabled = () =>
  new AppError(
    'not_implemented',
    'language-model hosting is disabled on this peer; MEMD_PEER_LLM_ENABLED=true with MEMD_PEER_LLM_PROFILES turns it on',
  );

/** The profile a request's `model` names (a profile, an alias, or the upstream's model id); none named: the default. */
export function profileFor(config: PeerConfig['llm'], model: unknown): LlmProfile {
  const wanted = typeof model === 'string' ? model : config.defaultProfile;
  const profile = config.profiles.find(
    (p) => p.name === wanted || p.aliases.includes(wanted ?? '') || p.model === wanted,
  );
  if (!profile)
    throw modelNotFound(
      String(wanted),
      config.profiles.map((p) => p.name),
    );
  return profile;
}

function parsePayload(raw: Buffer): Record<string, unknown> {
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('bad_request', 'the request body is not valid JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    throw new AppError('bad_request', 'the request body must be a JSON object');
  return payload as Record<string, unknown>;
}

export interface Relay {
  request: FastifyRequest;
  reply: FastifyReply;
  config: PeerConfig['llm'];
  load: ProviderLoad;
  profile: LlmProfile;
  /** After the profile's base URL, e.g. `/chat/completions`. */
  path: string;
  body: Buffer | FormData;
  /** Unset for a FormData body (fetch writes the multipart boundary). */
  contentType?: string;
}

/**
 * Sends a request to a profile's upstream and the answer back as the upstream sends it: status, body and the
 * headers a client needs, a stream as it arrives. The profile's slot is held until the answer is sent; a client
 * that leaves cancels the upstream request; MEMD_PEER_LLM_TIMEOUT_MS bounds the wait for the upstream's headers.
 */
export async function relay({
  request,
  reply,
  config,
  load,
  profile,
  path,
  body,
  contentType,
}: Relay): Promise<FastifyReply> {
  const release = await load.acquire();
  const upstream = new AbortController();
  let answered = false;
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) upstream.abort();
    release(answered && reply.raw.writableFinished);
  });
  let timedOut = false;
  const deadline = setTimeout(() => {
    timedOut = true;
    upstream.abort();
  }, config.timeoutMs);
  let response: Response;
  try {
    const headers: Record<string, string> = { accept: request.headers.accept ?? 'application/json' };
    if (contentType) headers['content-type'] = contentType;
    if (profile.apiKey) headers.authorization = `Bearer ${profile.apiKey}`;
    response = await fetch(`${profile.baseUrl}${path}`, { method: 'POST', headers, body, signal: upstream.signal });
  } catch (error) {
    const reason = timedOut
      ? `no answer within ${config.timeoutMs} ms (MEMD_PEER_LLM_TIMEOUT_MS)`
      : (((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    throw new AppError('provider_error', `upstream of profile '${profile.name}' failed: ${reason}`);
  } finally {
    clearTimeout(deadline);
  }
  answered = response.ok;
  reply.status(response.status);
  for (const name of PASSED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) reply.header(name, value);
  }
  if (!response.body) return reply.send();
  return reply.send(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>));
}

/**
 * Language-model hosting as forwarding: `/v1/chat/completions` and `/v1/completions` go to the OpenAI-compatible
 * upstream of the profile the request's `model` names, the payload unchanged (but for `model`), and the answer
 * comes back as the upstream sends it — status, body and, for `stream: true`, the server-sent events as they
 * arrive. A client that goes away cancels the upstream request. Disabled, every route answers 501.
 */
export function llmRoutes(app: PeerApp, config: PeerConfig['llm'], loads: ReadonlyMap<string, ProviderLoad>): void {
  const forward = (path: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.enabled) throw disabled();
    const raw = request.body as Buffer;
    const payload = parsePayload(raw);
    const profile = profileFor(config, payload.model);
    // Sent as received; a profile name or alias becomes the upstream's model id, nothing else changes.
    const body =
      payload.model === profile.model ? raw : Buffer.from(JSON.stringify({ ...payload, model: profile.model }));
    return relay({
      request,
      reply,
      config,
      load: loads.get(profile.name)!,
      profile,
      path,
      body,
      contentType: 'application/json',
    });
  };

  // The body is forwarded as received, so these routes read it as bytes, not as parsed JSON.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/v1/chat/completions',
      {
        schema: {
          tags: ['llm'],
          summary: 'Chat completions, forwarded to the profile `model` names (streaming passes through)',
        },
      },
      forward('/chat/completions'),
    );
    scope.post(
      '/v1/completions',
      { schema: { tags: ['llm'], summary: 'Legacy text completions, forwarded the same way' } },
      forward('/completions'),
    );
  });

  app.get(
    '/v1/models',
    { schema: { tags: ['llm'], summary: 'The language-model profiles: name, aliases, upstream model id' } },
    async () => {
      if (!config.enabled) throw disabled();
      return {
        object: 'list',
        data: config.profiles.map((p) => ({
          id: p.name,
          object: 'model',
          created: 0,
          owned_by: 'memd-peer',
          model: p.model,
          aliases: p.aliases,
          default: p.name === config.defaultProfile,
        })),
      };
    },
  );
}
