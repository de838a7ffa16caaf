import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemdClient } from '../../packages/client/src/index.js';
import {
  CLIENT_OPERATIONS_FILE,
  CLIENT_TYPES_FILE,
  OPENAPI_FILE,
  REGENERATE,
  renderClientTypes,
  renderOpenApi,
  renderOperationTable,
} from '../../scripts/openapi.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
const committed = readFileSync(OPENAPI_FILE, 'utf8');

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** `METHOD /path` of every operation in an OpenAPI document. */
const operationsOf = (document: { paths: Record<string, object> }) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );

/** The `operation` of every method reachable from the client, resource groups and their sub-groups included. */
function clientOperations(group: object, found = new Set<string>()): Set<string> {
  for (const member of Object.values(group)) {
    if (typeof member === 'function' && typeof (member as { operation?: unknown }).operation === 'string')
      found.add((member as { operation: string }).operation);
    else if (typeof member === 'object' && member !== null) clientOperations(member, found);
  }
  return found;
}

describe('the generated files', () => {
  it('openapi.json is the document the server serves', async () => {
    const served = await (await fetch(`${server.url}/openapi.json`)).json();
    expect(
      renderOpenApi(served) === committed,
      `openapi.json differs from what /openapi.json serves: ${REGENERATE}`,
    ).toBe(true);
  });

  it("the client's types and operation table are generated from openapi.json", async () => {
    expect(
      (await renderClientTypes(committed)) === readFileSync(CLIENT_TYPES_FILE, 'utf8'),
      `${relative(process.cwd(), CLIENT_TYPES_FILE)} is out of date: ${REGENERATE}`,
    ).toBe(true);
    expect(
      renderOperationTable(committed) === readFileSync(CLIENT_OPERATIONS_FILE, 'utf8'),
      `${relative(process.cwd(), CLIENT_OPERATIONS_FILE)} is out of date: ${REGENERATE}`,
    ).toBe(true);
  });
});

describe('the client', () => {
  it('has a method for every operation of the API, and none for an operation it does not have', () => {
    const documented = operationsOf(JSON.parse(committed));
    expect(documented.length).toBeGreaterThan(100);
    const implemented = clientOperations(new MemdClient({ baseUrl: server.url }));
    expect(
      documented.filter((operation) => !implemented.has(operation)),
      'operations without a client method',
    ).toEqual([]);
    expect(
      [...implemented].filter((operation) => !documented.includes(operation)),
      'client methods of no operation',
    ).toEqual([]);
  });
});
