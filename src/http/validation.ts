import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { invalid } from '../errors.js';
import { onFirstUse } from './compiled-on-first-use.js';

const addRfcFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * ajv-formats' formats, with `date-time` also held to what a JavaScript Date can hold: RFC 3339 allows a leap second
 * (`2016-12-31T23:59:60Z`), which `Date.parse` reads as NaN, and a stored timestamp nothing can read broke every later
 * answer that carried it (recall's freshness, a thread's expiry).
 */
function addFormats(ajv: Ajv): Ajv {
  addRfcFormats(ajv);
  const rfc = ajv.formats['date-time'] as { validate: (text: string) => boolean };
  return ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => rfc.validate(text) && Number.isFinite(Date.parse(text)),
  });
}

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

type RouteValidator = ReturnType<FastifySchemaCompiler<object>>;
/** A compiled check: its outcome, and (as ajv's functions carry them) the reasons of the last failure. */
type Check = ((data: unknown) => boolean | { value: unknown } | { error: Error }) & {
  errors?: ValidateFunction['errors'];
};

/**
 * A route's validator, compiled by ajv when a request first needs it: compiling every route's schemas weighed on a
 * process's first server start (ajv was 0.87 s of 5.9 s in a CPU profile of one, under load), and a process that
 * serves a few routes never needs the others. ajv keeps what it compiled per schema object, so later app instances of a
 * process share it. Fastify reads a failed check's reasons from the validator's `errors`.
 */
function compiledOnFirstUse(compile: () => Check): RouteValidator {
  const compiled = onFirstUse(compile);
  const validator = (data: unknown) => {
    const check = compiled();
    const outcome = check(data);
    validator.errors = check.errors ?? null;
    return outcome;
  };
  validator.errors = null as ValidateFunction['errors'];
  return validator as RouteValidator;
}

/**
 * A request without a body (none sent, or an empty one under `Content-Type: application/json`, which clients send
 * on every call) is the empty object when the route's body has no required field: `{}` with the schema's defaults
 * filled in. A route that needs a body says so.
 */
function bodyCheck(validate: ValidateFunction): Check {
  const takesNoBody = validate({});
  const check: Check = (data) => {
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
  return check;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart, contentType }) => {
  // A multipart form is read as a stream by its handler, which checks each field; its schema documents the form.
  if (httpPart === 'body' && contentType === 'multipart/form-data') return () => true;
  if (httpPart === 'body') return compiledOnFirstUse(() => bodyCheck(bodyAjv.compile(schema)));
  const ajv = httpPart === 'querystring' ? queryAjv : textAjv;
  return compiledOnFirstUse(() => ajv.compile(schema));
};

/** Compiles a schema for checking values outside a route (batch items, import lines). */
export const compileBodySchema = <T>(schema: object) => bodyAjv.compile<T>(schema);
