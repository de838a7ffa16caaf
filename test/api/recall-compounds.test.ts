import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/** Compounds written with a hyphen in some notes and as one word in others. */
const NOTES = [
  'Send the follow-up e-mail to Dana about the invoice.',
  'Dana prefers calls over meetings.',
  'The check-in for the Lisbon hotel opens at 3 pm.',
  'Our co-worker Raj set up the CI pipeline.',
  'Remember the followup call with the bank.',
  'The email from the landlord mentions the deposit.',
  'Lisbon hotel checkin needs a passport.',
  'The coworker parking pass is in the drawer.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'compounds', NOTES);
});
afterAll(() => server.stop());

const ask = (query: string) => memd.memories.recall({ workspace_id: workspace, query, limit: 3 });

describe('a compound written with a hyphen or as one word', () => {
  it.each([
    { query: 'followup with Dana', found: NOTES[0] },
    { query: 'follow-up call with the bank', found: NOTES[4] },
    { query: 'e-mail from the landlord', found: NOTES[5] },
    { query: 'email to Dana', found: NOTES[0] },
    { query: 'co-worker parking', found: NOTES[7] },
    { query: 'coworker who set up the pipeline', found: NOTES[3] },
  ])('"$query" finds "$found" first, holding every word', async ({ query, found }) => {
    const [top, second] = (await ask(query)).memories;
    expect(top!.content).toBe(found);
    expect(top!.relevance_score).toBe(1);
    expect(second!.relevance_score).toBeLessThan(1);
  });

  it('finds the note writing it either way for a question writing it either way', async () => {
    for (const query of ['hotel check-in', 'Lisbon checkin']) {
      const found = (await ask(query)).memories.filter((memory) => memory.relevance_score === 1);
      expect(found.map((memory) => memory.content).sort()).toEqual([NOTES[2], NOTES[6]].sort());
    }
  });

  it('still finds the compound from its parts written apart', async () => {
    const [top] = (await ask('check in at the hotel')).memories;
    expect(top!.content).toBe(NOTES[2]);
    expect(top!.relevance_score).toBe(1);
  });
});
