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
  'Nightly backup of the orders database runs at 2 am.',
  'Ana is back from Lisbon on Monday.',
  'The rollout of the new billing plan starts in May.',
  'We roll the dice on pricing every quarter.',
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

  it('finds it from its parts written apart, written with a hyphen or as one word', async () => {
    const found = (await ask('check in at the hotel')).memories.filter((memory) => memory.relevance_score === 1);
    expect(found.map((memory) => memory.content).sort()).toEqual([NOTES[2], NOTES[6]].sort());
  });
});

describe('words written apart that a note writes as one', () => {
  it.each([
    { query: 'how do we back up the orders database?', found: NOTES[8], other: NOTES[9] },
    { query: 'when do we roll out the billing plan?', found: NOTES[10], other: NOTES[11] },
    { query: 'follow up call', found: NOTES[4], other: NOTES[0] },
  ])('"$query" finds "$found" first, holding every word', async ({ query, found, other }) => {
    const [top, ...rest] = (await ask(query)).memories;
    expect(top!.content).toBe(found);
    expect(top!.relevance_score).toBe(1);
    // The note holding one of the words apart ("back", "roll") holds fewer of them.
    expect(rest.find((memory) => memory.content === other)?.relevance_score ?? 0).toBeLessThan(1);
  });

  it('joins no word after a function word: "a part" is not "apart"', async () => {
    const { memories } = await ask('a part of the plan');
    expect(memories.every((memory) => memory.relevance_score < 1)).toBe(true);
  });
});
