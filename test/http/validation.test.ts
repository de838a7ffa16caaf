import { Type } from 'typebox';
import { describe, expect, test } from 'vitest';
import { validatorCompiler } from '../../src/http/validation.js';

const routeOf = (schema: object, httpPart: string) => ({ schema, method: 'POST', url: '/v1/things', httpPart });

describe('route validators', () => {
  test('a body is checked as sent, with the reasons of a failure where Fastify reads them', () => {
    const validate = validatorCompiler(routeOf(Type.Object({ limit: Type.Integer() }), 'body'));
    expect(validate({ limit: '10' })).toBe(false);
    expect((validate as unknown as { errors: Array<{ instancePath: string }> }).errors[0]!.instancePath).toBe('/limit');
    expect(validate({ limit: 10 })).toBe(true);
    expect((validate as unknown as { errors: unknown }).errors).toBeNull();
  });

  test('no body is the empty object with its defaults, unless a field is required', () => {
    const optional = validatorCompiler(
      routeOf(Type.Object({ limit: Type.Integer({ default: 10 }) }, { additionalProperties: false }), 'body'),
    );
    expect(optional(null)).toEqual({ value: { limit: 10 } });
    const required = validatorCompiler(routeOf(Type.Object({ content: Type.String() }), 'body'));
    expect(required(undefined)).toMatchObject({ error: { message: expect.stringMatching(/is required/) } });
  });

  test('query strings are coerced and their unknown parameters dropped', () => {
    const schema = Type.Object({ limit: Type.Integer() }, { additionalProperties: false });
    const validate = validatorCompiler(routeOf(schema, 'querystring'));
    const query: Record<string, unknown> = { limit: '10', page_token: 'x' };
    expect(validate(query)).toBe(true);
    expect(query).toEqual({ limit: 10 });
  });

  test('a validator is compiled when a request first needs it, not when the server starts', () => {
    // A reference nothing defines: ajv refuses it when it compiles.
    const broken = { type: 'object', properties: { id: { $ref: 'nowhere#/id' } } };
    const validate = validatorCompiler(routeOf(broken, 'body'));
    expect(() => validate({ id: 'x' })).toThrow(/nowhere/);
  });
});
