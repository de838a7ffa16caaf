import { readdirSync } from 'node:fs';
import { Type } from 'typebox';
import fastJson from 'fast-json-stringify';
import { describe, expect, test } from 'vitest';
import { serializerCompiler } from '../../src/http/serialization.js';

const route = (schema: object) => ({ schema, method: 'GET', url: '/v1/things', httpStatus: '200' });

describe('response serializers', () => {
  test('serialize as fast-json-stringify does: fields the schema does not name are left out', () => {
    const schema = Type.Object({ id: Type.String(), score: Type.Number() });
    const serialize = serializerCompiler(route(schema));
    expect(serialize({ id: 'mem_1', score: 0.5, secret: 'not in the schema' })).toBe('{"id":"mem_1","score":0.5}');
  });

  test('one function per schema object, for every route and app instance that answers with it', () => {
    const schema = Type.Object({ id: Type.String() });
    const first = serializerCompiler(route(schema));
    expect(serializerCompiler({ ...route(schema), url: '/v1/other', method: 'POST' })).toBe(first);
    expect(serializerCompiler(route(Type.Object({ id: Type.String() })))).not.toBe(first);
  });

  test('a serializer is built when a response first needs it, not when the server starts', () => {
    // A reference nothing defines: fast-json-stringify refuses it when it builds.
    const broken = { type: 'object', properties: { id: { $ref: 'nowhere#/id' } } };
    const serialize = serializerCompiler(route(broken));
    expect(() => serialize({ id: 'x' })).toThrow(/nowhere/);
  });

  // Built lazily, a schema fast-json-stringify cannot build would fail its first response rather than the start: every
  // shape of src/schemas is built here (the routes' own response schemas are built by the API tests that get them).
  test('every shape of src/schemas builds', async () => {
    const directory = new URL('../../src/schemas/', import.meta.url);
    let built = 0;
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.ts'))) {
      const module = (await import(new URL(file, directory).href)) as Record<string, unknown>;
      for (const value of Object.values(module)) {
        if (typeof value !== 'object' || value === null || !('type' in value || 'anyOf' in value)) continue;
        expect(() => fastJson(value as fastJson.AnySchema)).not.toThrow();
        built++;
      }
    }
    expect(built).toBeGreaterThan(30);
  });
});
