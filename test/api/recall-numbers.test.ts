import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/** Each number's note beside one that holds the question's other words. */
const NOTES = [
  'Maya has three kids and a dog.',
  'Tom has two kids and a cat.',
  'The meeting room is on the second floor.',
  'The kitchen is on the 4th floor.',
  'We need 12 chairs for the workshop.',
  'We need chairs for the garden party.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'numbers', NOTES);
});
afterAll(() => server.stop());

describe('a number asked in digits or in words', () => {
  it.each([
    { query: 'who has 3 kids?', found: NOTES[0], other: NOTES[1] },
    { query: 'what is on the 2nd floor?', found: NOTES[2], other: NOTES[3] },
    { query: 'twelve chairs', found: NOTES[4], other: NOTES[5] },
  ])('"$query" finds "$found" first, the number held', async ({ query, found, other }) => {
    const [top, ...rest] = (await memd.memories.recall({ workspace_id: workspace, query, limit: 3 })).memories;
    expect(top!.content).toBe(found);
    expect(top!.relevance_score).toBe(1);
    expect(rest.find((m) => m.content === other)?.relevance_score ?? 0).toBeLessThan(1);
  });
});
