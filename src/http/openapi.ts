import { isDeepStrictEqual } from 'node:util';
import { withDefaultsOptional } from './caller-schema.js';

/**
 * The last touches to the OpenAPI document that @fastify/swagger builds from the route schemas, so that a client
 * generated from it (packages/client) gets the shapes a caller writes and reads:
 * - a schema with a `title` is one named shape: it moves to `components/schemas/<title>` and every use becomes a
 *   `$ref`, or `allOf: [$ref]` with `nullable` where the use may be null (two different schemas under one title are a
 *   mistake, and fail here); a response that is just that shape,
 *   described by its own description (the error body), becomes `components/responses/<title>` likewise;
 * - a request field or parameter with a `default` is optional to the caller, whatever the schema's `required`
 *   says (the server fills the default in before the handler sees it; `withDefaultsOptional`).
 */
export function finishOpenApiDocument<T extends object>(document: T): T {
  const doc = document as unknown as OpenApiDocument;
  const named: Record<string, JsonObject> = {};
  doc.paths = nameTitledSchemas(doc.paths, named) as OpenApiDocument['paths'];
  const responses: Record<string, unknown> = {};
  for (const operation of operationsOf(doc)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const title = namedResponseTitle(response, named);
      if (title === undefined) continue;
      responses[title] = response;
      operation.responses![status] = { $ref: `#/components/responses/${title}` };
    }
    for (const parameter of operation.parameters ?? []) {
      if (parameter.required && parameter.in !== 'path' && parameter.schema?.default !== undefined)
        parameter.required = false;
    }
    for (const media of Object.values(operation.requestBody?.content ?? {}))
      media.schema = withDefaultsOptional(media.schema);
  }
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ...named },
    responses: { ...doc.components?.responses, ...responses },
  };
  return document;
}

type JsonObject = Record<string, unknown>;

interface Parameter {
  in: string;
  required?: boolean;
  schema?: JsonObject;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown>; responses?: Record<string, unknown> } & JsonObject;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function* operationsOf(doc: OpenApiDocument): Generator<Operation> {
  for (const item of Object.values(doc.paths)) {
    for (const [method, operation] of Object.entries(item))
      if (method !== 'parameters' && isObject(operation)) yield operation;
  }
}

/** A copy of `value` in which every titled schema is a `$ref` to its entry in `named`. */
function nameTitledSchemas(value: unknown, named: Record<string, JsonObject>): unknown {
  if (Array.isArray(value)) return value.map((item) => nameTitledSchemas(item, named));
  if (!isObject(value)) return value;
  const { nullable, ...copy } = Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, nameTitledSchemas(item, named)]),
  );
  const title = copy.title;
  if (typeof title !== 'string' || copy.type === undefined)
    return nullable === undefined ? copy : { ...copy, nullable };
  const existing = named[title];
  if (existing && !isDeepStrictEqual(existing, copy))
    throw new Error(`two different OpenAPI schemas are titled '${title}': give one another title`);
  named[title] = copy;
  const ref = { $ref: `#/components/schemas/${title}` };
  // A nullable use of the shape (the document writes `T | null` as T with `nullable`): a $ref takes no siblings.
  return nullable === true ? { allOf: [ref], nullable } : ref;
}

/** The title of the named schema a response consists of, when it carries that schema's own description. */
function namedResponseTitle(response: unknown, named: Record<string, JsonObject>): string | undefined {
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const media = Object.entries(response.content);
  const ref =
    media.length === 1 && media[0]![0] === 'application/json' && isObject(media[0]![1]) && isObject(media[0]![1].schema)
      ? media[0]![1].schema.$ref
      : undefined;
  const title = typeof ref === 'string' ? ref.replace('#/components/schemas/', '') : undefined;
  return title !== undefined && named[title]?.description === response.description ? title : undefined;
}
