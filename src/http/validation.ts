import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { invalid } from '../errors.js';

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

type BodyValidator = ReturnType<FastifySchemaCompiler<object>>;

/**
 * A request without a body (none sent, or an empty one under `Content-Type: application/json`, which clients send
 * on every call) is the empty object when the route's body has no required field: `{}` with the schema's defaults
 * filled in. A route that needs a body says so.
 */
function bodyValidator(validate: ValidateFunction): BodyValidator {
  const takesNoBody = validate({});
  const check = (data: unknown): boolean | { value: unknown } | { error: Error } => {
    // Fastify hands a missing body over as null; a JSON `null` is no body either.
    if (data !== null && data !== undefined) {
      const valid = validate(data);
      check.errors = validate.errors;
      return valid;
    }
    check.errors = null;
    if (!takesNoBody) return { error: invalid('/body', 'is required: this endpoint takes a JSON body') };
    const body = {};
    validate(body);
    return { value: body };
  };
  check.errors = null as ValidateFunction['errors'];
  return check as BodyValidator;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart, contentType }) => {
  // A multipart form is read as a stream by its handler, which checks each field; its schema documents the form.
  if (httpPart === 'body' && contentType === 'multipart/form-data') return () => true;
  if (httpPart === 'body') return bodyValidator(bodyAjv.compile(schema));
  const ajv = httpPart === 'querystring' ? queryAjv : textAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

/** Compiles a schema for checking values outside a route (batch items, import lines). */
export const compileBodySchema = <T>(schema: object) => bodyAjv.compile<T>(schema);
