import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../errors.js';
import { OcrProblem, type OcrProblemCode, type OcrProvider } from '../providers/ocr/index.js';
import type { Hosted } from './hosted.js';
import type { PeerApp } from './server.js';

/** The OCR engine the peer serves. */
export type HostedOcr = Hosted<OcrProvider>;

const STATUS_BY_PROBLEM: Record<OcrProblemCode, number> = {
  invalid_image: 400,
  image_too_large: 413,
  ocr_timeout: 503,
  ocr_failed: 500,
};

const Box = Type.Object(
  { x0: Type.Number(), y0: Type.Number(), x1: Type.Number(), y1: Type.Number() },
  { description: 'left, top, right, bottom, in image pixels' },
);
const Confidence = Type.Number({ minimum: 0, maximum: 1 });
const Word = Type.Object({ text: Type.String(), confidence: Confidence, bbox: Box });
const Line = Type.Object({ text: Type.String(), confidence: Confidence, bbox: Box, words: Type.Array(Word) });
const OcrAnswer = Type.Object({
  object: Type.Literal('ocr'),
  model: Type.String({ description: 'the model that read the image, e.g. tesseract.js-eng-best-int' }),
  text: Type.String({ description: 'the text, lines joined by newlines' }),
  confidence: Type.Number({
    minimum: 0,
    maximum: 1,
    description: "mean confidence of the image's words (0 when nothing was read)",
  }),
  width: Type.Integer(),
  height: Type.Integer(),
  lines: Type.Array(Line),
});
const ErrorBody = Type.Object({
  error: Type.Object({
    message: Type.String(),
    type: Type.String(),
    code: Type.String({
      description:
        'why: invalid_image (400), image_too_large (413), ocr_timeout (503), ocr_failed (500), not_implemented (501, OCR off), not_ready (503, the model is loading)',
    }),
  }),
});
/** The image file as the body: any media type the route reads as bytes (no type constraint, so a Buffer passes validation). */
const ImageBytes = Type.Unsafe<Uint8Array>({
  format: 'binary',
  description: 'the image file (PNG, JPEG, TIFF, WebP, BMP or PNM); of a multi-page TIFF the first page is read',
});
const OcrBody = {
  content: {
    'application/json': {
      schema: Type.Object({ image: Type.String({ description: 'the image file in base64, or a data: URL' }) }),
    },
    'application/octet-stream': { schema: ImageBytes },
    'image/png': { schema: ImageBytes },
    'image/jpeg': { schema: ImageBytes },
    'image/tiff': { schema: ImageBytes },
    'image/webp': { schema: ImageBytes },
  },
};

/** Image media types read as the raw request body. */
const IMAGE_BODY = /^(image\/[a-z0-9.+-]+|application\/octet-stream)$/i;

/**
 * `POST /v1/ocr`: the text of one image (PNG, JPEG, TIFF, WebP, BMP, PNM), sent as the raw body (an image media type
 * or application/octet-stream) or as JSON `{image: <base64>}`. Answers `{object: "ocr", model, text, confidence,
 * width, height, lines: [{text, confidence, bbox, words: [{text, confidence, bbox}]}]}`, confidences 0..1. An
 * image that cannot be read answers with OpenAI's error body and the reason's code: `invalid_image` (400),
 * `image_too_large` (413), `ocr_timeout` (503), `ocr_failed` (500); OCR off: 501.
 */
export function ocrRoutes(app: PeerApp, hosted: HostedOcr | null): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(IMAGE_BODY, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    const schema = {
      tags: ['ocr'],
      summary: 'Read the text of an image (raw bytes, or JSON with base64)',
      body: OcrBody,
      response: { 200: OcrAnswer, '4xx': ErrorBody, '5xx': ErrorBody },
    };
    // A body schema per media type is Fastify's own form; the type provider types only a single schema, and the
    // handler reads the body itself (imageOf).
    scope.post('/v1/ocr', { schema: schema as unknown as { tags: string[] } }, async (request, reply) => {
      if (!hosted)
        throw new AppError(
          'not_implemented',
          'OCR is off on this peer (MEMD_PEER_OCR=off); MEMD_PEER_OCR=local turns it on',
        );
      if (hosted.state !== 'ready')
        throw new AppError(
          'not_ready',
          `the OCR model is ${hosted.state === 'loading' ? 'still loading' : `unavailable: ${hosted.error}`}`,
        );
      const image = imageOf(request.body);
      try {
        return { object: 'ocr', ...(await hosted.load.run(() => hosted.provider.recognize(image))) };
      } catch (error) {
        if (error instanceof OcrProblem) return problemReply(reply, error);
        throw error;
      }
    });
  });
}

function imageOf(body: unknown): Uint8Array {
  if (Buffer.isBuffer(body)) return body;
  if (typeof (body as { image?: unknown } | null)?.image !== 'string')
    throw new AppError(
      'bad_request',
      'send the image as the request body (Content-Type image/png, image/jpeg, image/tiff, image/webp or application/octet-stream) or as JSON {"image": "<base64>"}',
    );
  // A data: URL's header is dropped; Node's base64 decoder skips what is not base64, and a bad image fails as one.
  return Buffer.from((body as { image: string }).image.replace(/^data:[^,]*,/, ''), 'base64');
}

function problemReply(reply: FastifyReply, problem: OcrProblem): FastifyReply {
  const status = STATUS_BY_PROBLEM[problem.code];
  return reply.status(status).send({
    error: {
      message: problem.message,
      type: status >= 500 ? 'server_error' : 'invalid_request_error',
      code: problem.code,
    },
  });
}
