import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

const NOTES = [
  'Maya moved to Lisbon in 2021 for a job at a design studio.',
  'Maya likes surfing and bakes sourdough on Sundays.',
  'Maya works as an architect.',
  'Tom moved to Porto in 2019.',
  'The studio in Lisbon opens at nine.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'case', NOTES);
});
afterAll(() => server.stop());

describe('a question typed in capitals', () => {
  it('is answered as the same question in lower case', async () => {
    const ask = async (query: string) =>
      (await memd.memories.recall({ workspace_id: workspace, query, limit: 5 })).memories.map((m) => m.content);
    const lower = await ask('where did maya move in 2021?');
    expect(lower[0]).toBe(NOTES[0]);
    expect(await ask('WHERE DID MAYA MOVE IN 2021?')).toEqual(lower);
  });
});
