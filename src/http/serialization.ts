import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { onFirstUse } from './compiled-on-first-use.js';

type Serialize = (data: unknown) => string;

/**
 * Compiled response serializers, by schema object: the route schemas are module constants, so every route that
 * answers with one shape, and every app instance of a process, shares one compiled function.
 */
const compiled = new WeakMap<object, Serialize>();

/**
 * Fastify's own serializer compiler builds every route's response serializers when the server starts, once per
 * route and app instance, with no cache: a test server's `listen`, where Fastify compiles, took 320-410 ms, and
 * 50-95 ms with this one for every server after a process's first (NOTES.md, "Tests and CI"). This one builds each
 * schema's serializer when a response first needs it, once a process (or once a server is ready:
 * compiled-on-first-use.ts); what it builds is the same, with fast-json-stringify's default options as Fastify uses
 * them.
 */
export const serializerCompiler: FastifySerializerCompiler<object> = ({ schema }) => {
  const known = compiled.get(schema);
  if (known) return known;
  const serializer = onFirstUse(() => fastJson(schema) as Serialize);
  const lazily: Serialize = (data) => serializer()(data);
  compiled.set(schema, lazily);
  return lazily;
};
