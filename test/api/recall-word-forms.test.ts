import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/**
 * Notes that hold a word in one form, each beside one that holds the question's other words. The last ones hold
 * the words as the questions write them, so that none matches nothing: a word matching nothing is searched through
 * its synonyms anyway (unmatched.ts), which would find some of these without the forms under test.
 */
const NOTES = {
  threeKids: 'Maya has three kids and a dog.',
  twoKids: 'Tom has two kids and a cat.',
  secondFloor: 'The meeting room is on the second floor.',
  fourthFloor: 'The kitchen is on the 4th floor.',
  twelveChairs: 'We need 12 chairs for the workshop.',
  chairs: 'We need chairs for the garden party.',
  color: "The user's favorite color is teal.",
  food: "The user's favorite food is ramen.",
  organized: 'Ana organized the workshop at the community center.',
  ran: 'Ana ran the workshop at the library.',
  gray: 'The hallway wall is painted gray.',
  white: 'The hallway wall is painted white.',
  child: "Maya's child starts school in September.",
  job: 'Maya starts a new job in September.',
  people: 'Two people from the Lisbon office joined the call.',
  clients: 'Two clients from the Lisbon office joined the call.',
  british: 'Ben organised the office party in the centre of town.',
  britishToo: 'The grey cat sleeps in the colour printer box; it is my favourite.',
  asAsked: 'The children of the office team planted a tree; one person watered it.',
};

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'word-forms', Object.values(NOTES));
});
afterAll(() => server.stop());

/** The note holding every word of the question, in another form, comes first; the note without it holds fewer. */
async function expectFirst(query: string, found: string, other: string): Promise<void> {
  const [top, ...rest] = (await memd.memories.recall({ workspace_id: workspace, query, limit: 3 })).memories;
  expect(top!.content).toBe(found);
  expect(top!.relevance_score).toBe(1);
  expect(rest.find((m) => m.content === other)?.relevance_score ?? 0).toBeLessThan(1);
}

describe('a number asked in digits or in words', () => {
  it.each([
    { query: 'who has 3 kids?', found: NOTES.threeKids, other: NOTES.twoKids },
    { query: 'what is on the 2nd floor?', found: NOTES.secondFloor, other: NOTES.fourthFloor },
    { query: 'twelve chairs', found: NOTES.twelveChairs, other: NOTES.chairs },
  ])('"$query" finds "$found" first', ({ query, found, other }) => expectFirst(query, found, other));
});

describe('a question in British spelling', () => {
  it.each([
    { query: "what is the user's favourite colour?", found: NOTES.color, other: NOTES.food },
    { query: 'who organised the workshop at the centre?', found: NOTES.organized, other: NOTES.ran },
    { query: 'the grey hallway wall', found: NOTES.gray, other: NOTES.white },
  ])('"$query" finds "$found" first', ({ query, found, other }) => expectFirst(query, found, other));
});

describe('an irregular noun asked in the other number', () => {
  it.each([
    { query: "when do Maya's children start school?", found: NOTES.child, other: NOTES.job },
    { query: 'which person from the Lisbon office joined the call?', found: NOTES.people, other: NOTES.clients },
  ])('"$query" finds "$found" first', ({ query, found, other }) => expectFirst(query, found, other));
});
