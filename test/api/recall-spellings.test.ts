import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/**
 * Notes in American spelling, each beside one that holds the question's other words; the last ones hold the British
 * words, so that none of them matches nothing (a word matching nothing is searched through its synonyms anyway).
 */
const NOTES = [
  "The user's favorite color is teal.",
  "The user's favorite food is ramen.",
  'Ana organized the workshop at the community center.',
  'Ana ran the workshop at the library.',
  'The hallway wall is painted gray.',
  'The hallway wall is painted white.',
  'Ben organised the office party in the centre of town.',
  'The grey cat sleeps in the colour printer box; it is my favourite.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'spellings', NOTES);
});
afterAll(() => server.stop());

describe('a question in British spelling', () => {
  it.each([
    { query: "what is the user's favourite colour?", found: NOTES[0], other: NOTES[1] },
    { query: 'who organised the workshop at the centre?', found: NOTES[2], other: NOTES[3] },
    { query: 'the grey hallway wall', found: NOTES[4], other: NOTES[5] },
  ])('"$query" finds "$found" first, every word held', async ({ query, found, other }) => {
    const [top, ...rest] = (await memd.memories.recall({ workspace_id: workspace, query, limit: 3 })).memories;
    expect(top!.content).toBe(found);
    expect(top!.relevance_score).toBe(1);
    expect(rest.find((m) => m.content === other)?.relevance_score ?? 0).toBeLessThan(1);
  });
});
