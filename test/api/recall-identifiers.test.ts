import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { memdClient, startServer, type TestServer, workspaceOfNotes } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
let workspace: string;

/** A coding agent's notes: names as code writes them, beside notes that share the plain words. */
const NOTES = [
  'The flaky test OrderServiceSpec.shouldRetryOnTimeout fails about once in 20 runs on CI.',
  'getUserById in src/services/userService.ts returns null when the account is soft-deleted.',
  'We pinned react-router to 6.22.3 because 6.23 changed what useNavigate does in tests.',
  'The GraphQL schema lives in api/schema.graphql and is compiled by codegen.',
  'The S3 bucket for user uploads is acme-uploads in eu-west-1.',
  'Python services use poetry; the order of the lockfile entries must not be edited by hand.',
  'Use the feature flag ENABLE_NEW_CHECKOUT to switch the checkout flow; it defaults to false.',
  'A user service account owns the nightly export job.',
  'Release 4.2 went out on 2024-03-15 with the fix for ticket ABC-123.',
  'Release 4.3 is planned after the March sprint.',
];

beforeAll(async () => {
  server = await startServer();
  memd = memdClient(server.url);
  workspace = await workspaceOfNotes(memd, 'identifiers', NOTES);
});
afterAll(() => server.stop());

describe('recall of names as code writes them', () => {
  it.each([
    // Camel case asked in words, and as written.
    { query: 'order service spec', found: NOTES[0] },
    { query: 'should retry on timeout', found: NOTES[0] },
    { query: 'shouldRetryOnTimeout', found: NOTES[0] },
    { query: 'use navigate', found: NOTES[2] },
    { query: 'get user by id', found: NOTES[1] },
    // A word of a path, a file name or an address: PostgreSQL's parser read each as one word.
    { query: 'userService', found: NOTES[1] },
    { query: 'schema.graphql', found: NOTES[3] },
    { query: 'graphql schema', found: NOTES[3] },
    // An underscore joins words for the query's word breaks, not for either index.
    { query: 'enable_new_checkout', found: NOTES[6] },
    // A version, a date, a ticket (PostgreSQL read "-15" and "-123" as negative numbers: the conformance test of
    // migration 0027 shows it; here the temporal arm and the ticket's other words find the note either way).
    { query: '2024-03-15', found: NOTES[8] },
    { query: 'ticket ABC-123', found: NOTES[8] },
    { query: 'release 4.2', found: NOTES[8] },
  ])('finds "$found" first for "$query", every word held', async ({ query, found }) => {
    const answer = await memd.memories.recall({ workspace_id: workspace, query, limit: 3 });
    const [top] = answer.memories;
    expect(top!.content).toBe(found);
    expect(top!.match_signals).toContain('keyword');
    expect(top!.relevance_score).toBe(1);
  });

  it('keeps a word read in camel-case parts whole as well', async () => {
    // "userservice" is the path's word, which the parts ("user", "service") do not replace.
    const answer = await memd.memories.recall({ workspace_id: workspace, query: 'userservice', limit: 3 });
    expect(answer.memories.map((m) => m.content)).toContain(NOTES[1]);
    expect(answer.memories[0]!.content).toBe(NOTES[1]);
  });
});
