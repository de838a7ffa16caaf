import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { PeerConfig } from './config.js';
import { AppError } from '../errors.js';
import { disabled, profileFor, relay } from './llm-proxy.js';
import type { ProviderLoad } from './load.js';
import type { PeerApp } from './server.js';

/** The multipart form as received: its text fields in order and its one file. */
async function readForm(
  request: FastifyRequest,
): Promise<{ fields: Array<[string, string]>; file: { name: string; type: string; bytes: Buffer } | undefined }> {
  if (!request.isMultipart())
    throw new AppError(
      'bad_request',
      'send the audio as multipart/form-data with `file` and `model`, as OpenAI’s /v1/audio/transcriptions takes it',
    );
  const fields: Array<[string, string]> = [];
  let file: { name: string; type: string; bytes: Buffer } | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file')
      file = { name: part.filename || 'audio', type: part.mimetype, bytes: await part.toBuffer() };
    else fields.push([part.fieldname, String(part.value)]);
  }
  return { fields, file };
}

/**
 * OpenAI-compatible `POST /v1/audio/transcriptions`, forwarded like chat: to the upstream of the language-model
 * profile the form's `model` names (a whisper server, vLLM, a hosted API), the form unchanged but for `model`,
 * which becomes the upstream's model id; the answer comes back as sent. Off (501) unless LLM hosting is enabled.
 */
export function transcriptionRoutes(
  app: PeerApp,
  config: PeerConfig['llm'],
  loads: ReadonlyMap<string, ProviderLoad>,
  bodyLimitBytes: number,
): void {
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: bodyLimitBytes, files: 1, fields: 32, fieldSize: 1024 * 1024 },
    });
    scope.post(
      '/v1/audio/transcriptions',
      {
        schema: {
          tags: ['llm'],
          summary: 'Speech to text (OpenAI-compatible multipart), forwarded to the profile `model` names',
        },
      },
      async (request, reply) => {
        if (!config.enabled) throw disabled();
        const { fields, file } = await readForm(request);
        if (!file) throw new AppError('bad_request', 'the form has no `file`');
        const profile = profileFor(config, fields.find(([name]) => name === 'model')?.[1]);
        const form = new FormData();
        for (const [name, value] of fields) form.append(name, name === 'model' ? profile.model : value);
        if (!fields.some(([name]) => name === 'model')) form.append('model', profile.model);
        form.append('file', new Blob([file.bytes], { type: file.type }), file.name);
        return relay({
          request,
          reply,
          config,
          load: loads.get(profile.name)!,
          profile,
          path: '/audio/transcriptions',
          body: form,
        });
      },
    );
  });
}
