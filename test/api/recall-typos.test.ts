import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/** Notes that share every word of the questions below but the misspelt one. */
const NOTES = [
  'Our vacation in Lisbon starts on 3 May.',
  'Our flight to Lisbon leaves on 3 May.',
  'Maya organised a fundraiser for the animal shelter.',
  'Maya walked the dogs at the animal shelter.',
  'The anniversary dinner is at Casa Nova.',
  'The team dinner is at Casa Nova.',
  'The chipboard shelf in the garage broke.',
  'The clipboard with the checklist hangs in the garage.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'typos', NOTES);
});
afterAll(() => server.stop());

const ask = (query: string) => memd.memories.recall({ workspace_id: workspace, query, limit: 3 });

describe('a misspelt word', () => {
  it.each([
    { query: 'When does our vacaton in Lisbon start?', found: NOTES[0], other: NOTES[1] },
    { query: 'Maya animal shelter funraiser', found: NOTES[2], other: NOTES[3] },
    { query: 'Where is the anniversery dinner?', found: NOTES[4], other: NOTES[5] },
  ])('"$query" finds "$found" first, as spelt right', async ({ query, found, other }) => {
    const [top, ...rest] = (await ask(query)).memories;
    expect(top!.content).toBe(found);
    expect(top!.match_signals).toContain('keyword');
    // Every word held, the misspelt one as the word it was meant as; the note without that word holds fewer.
    expect(top!.relevance_score).toBe(1);
    const without = rest.find((m) => m.content === other);
    expect(without?.relevance_score ?? 0).toBeLessThan(1);
  });

  it('is guessed for the first three of a query only', async () => {
    // Five slips, each one from a word the notes hold: a query of many words nothing holds is no typed question.
    const answer = await memd.memories.recall({
      workspace_id: workspace,
      query: 'vacaton funraiser anniversery dinnner shelterr',
      limit: 3,
      explain: true,
    });
    expect(answer.explanation!.synonyms).toEqual({
      vacaton: ['vacation'],
      funraiser: ['fundraiser'],
      anniversery: ['anniversary'],
    });
  });

  it('is not what a word the workspace holds is searched as', async () => {
    // "chipboard" is one slip from "clipboard", and the workspace holds both: each is searched as written.
    const [top, ...rest] = (await ask('the chipboard in the garage')).memories;
    expect(top!.content).toBe(NOTES[6]);
    expect(rest.find((m) => m.content === NOTES[7])?.relevance_score ?? 0).toBeLessThan(1);
  });
});
