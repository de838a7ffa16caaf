import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const shared: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/**
 * Bodies are JSON and are checked as sent: "0.7" is not a number, and a field the route does not know is refused.
 * Query strings, path parameters and headers are text by nature, so they are coerced ("10" → 10, "a" → ["a"]).
 * Query parameters a route does not know are dropped, not refused: clients add their own (paging, filters) to
 * every call, as the web does.
 */
const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
const queryAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array', removeAdditional: true }));

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart, contentType }) => {
  // A multipart form is read as a stream by its handler, which checks each field; its schema documents the form.
  if (httpPart === 'body' && contentType === 'multipart/form-data') return () => true;
  const ajv = httpPart === 'body' ? bodyAjv : httpPart === 'querystring' ? queryAjv : textAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

/** Compiles a schema for checking values outside a route (batch items, import lines). */
export const compileBodySchema = <T>(schema: object) => bodyAjv.compile<T>(schema);
