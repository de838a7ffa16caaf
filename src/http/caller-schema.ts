/**
 * A request schema as its caller sees it: a property with a `default` is optional to the caller, whatever the
 * schema's `required` says, because the validator fills the default in before any handler sees the request. TypeBox
 * puts every property not wrapped in `Type.Optional` into `required`, defaults or not, so both documents a caller reads
 * (the OpenAPI document, MCP's `tools/list`) pass their request schemas through this.
 */
export function withDefaultsOptional(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withDefaultsOptional);
  if (!isObject(schema)) return schema;
  const copy: JsonObject = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, withDefaultsOptional(value)]),
  );
  const properties = copy.properties;
  if (isObject(properties) && Array.isArray(copy.required)) {
    const required = copy.required.filter(
      (name) => !(isObject(properties[name]) && properties[name].default !== undefined),
    );
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  return copy;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
