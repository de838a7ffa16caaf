import type { Client } from './server.js';

/** A JSON Schema as the OpenAPI document carries it. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  minItems?: number;
  format?: string;
  default?: unknown;
  [keyword: string]: unknown;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

/** One route of the app, as its OpenAPI entry describes it. */
export interface Route {
  method: string;
  /** `/v1/memories/{memory_id}` */
  path: string;
  parameters: Parameter[];
  /** Media type → schema of the body, when the route reads one. */
  bodies: Record<string, Schema>;
}

export const routeName = (route: Route): string => `${route.method} ${route.path}`;

/** Every route the app registers with a schema (aliases hidden from the document share their twin's schemas). */
export async function listRoutes(api: Client): Promise<Route[]> {
  const doc = (await api.get('/openapi.json')).body as {
    paths: Record<
      string,
      Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
  };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const bodies = Object.fromEntries(
        Object.entries(operation.requestBody?.content ?? {}).map(([type, { schema }]) => [type, schema]),
      );
      routes.push({ method: method.toUpperCase(), path, parameters: operation.parameters ?? [], bodies });
    }
  }
  return routes;
}

/** The route's path with each parameter replaced (by name, `*` for a wildcard), URL-encoded. */
export function fillPath(route: Route, value: (name: string) => string): string {
  return route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === '*' ? value(name) : encodeURIComponent(value(name)),
  );
}

/** Whether `{}` satisfies a body schema (a required field with a default is filled in), so that no body is a valid one. */
export const requiresNothing = (schema: Schema): boolean =>
  schema.type === 'object' &&
  (schema.required ?? []).every((name) => schema.properties?.[name]?.default !== undefined) &&
  !((schema.minProperties as number | undefined) ?? 0);

const variants = (schema: Schema): Schema[] => [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];

/** A small value the schema accepts (as far as a sample can: patterns other than the usual ones are not solved). */
export function sampleOf(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choices = variants(schema).filter((s) => s.type !== 'null');
  if (choices.length > 0) return sampleOf(choices[0]!);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part) as object));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return '2026-03-01T12:00:00.000Z';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/x';
      if (schema.format === 'email') return 'a@example.com';
      return 'sample'.padEnd(schema.minLength ?? 0, 'x');
    case 'integer':
    case 'number': {
      const low =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : 1;
      return typeof schema.maximum === 'number' ? Math.min(low, schema.maximum) : low;
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}));
    case 'object':
    case undefined:
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, sampleOf(schema.properties?.[name] ?? {})]),
      );
    default:
      return null;
  }
}

/** Every number and integer in a schema, with where it is: `body.importance`, `body.operations[].strength`. */
export function numbersIn(schema: Schema, where: string): Array<{ where: string; schema: Schema }> {
  const found: Array<{ where: string; schema: Schema }> = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) found.push({ where, schema });
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    found.push(...numbersIn(property, `${where}.${name}`));
  if (schema.items) found.push(...numbersIn(schema.items, `${where}[]`));
  if (typeof schema.additionalProperties === 'object')
    found.push(...numbersIn(schema.additionalProperties as Schema, `${where}.*`));
  for (const part of [...variants(schema), ...(schema.allOf ?? [])]) found.push(...numbersIn(part, where));
  return found;
}
