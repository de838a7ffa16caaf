import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemdClient } from '../../packages/client/src/index.js';
import { ManualClock, memdClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));

beforeAll(async () => {
  server = await startServer({ clock });
  memd = memdClient(server.url);
});
afterAll(() => server.stop());

let workspaces = 0;
const workspace = async (): Promise<string> =>
  (await memd.workspaces.create({ id: `conversation-${++workspaces}`, name: 'conversation' })).workspace.id;

const recall = async (workspace_id: string, query: string, extra: { limit?: number; min_relevance?: number } = {}) =>
  (await memd.memories.recall({ workspace_id, query, ...extra })).memories;

const HOUR = 3_600_000;
// The reply holds none of the question's words: only its place in the conversation can find it.
const QUESTION = 'How long have you been restoring vintage motorcycles in the garage?';
const REPLY = 'Eleven years now, ever since my father left me his old toolbox.';
const FILLER = [
  'The weather turned cold again this week.',
  'Did you watch the football match on Sunday?',
  'My sister moved to Lisbon for a new job.',
];
const ASKED = 'how long restoring vintage motorcycles garage';

/** Lines of a conversation between two speakers, each opening with its speaker's label. */
const turns = (lines: string[]): string[] => lines.map((line, i) => `${i % 2 === 0 ? 'Ana' : 'Ben'}: ${line}`);

const batch = async (
  workspace_id: string,
  contents: string[],
  metadata: (i: number) => Record<string, unknown> = () => ({}),
) => {
  const answer = await memd.memories.batch({
    workspace_id,
    operations: contents.map((content, i) => ({ op: 'create' as const, content, metadata: metadata(i) })),
  });
  return answer.results.map((r) => r.memory_id!);
};
/** One memory per call (through `as`, e.g. a client in a session); the clock moves on a second, as between a client's separate calls. */
const write = async (
  workspace_id: string,
  content: string,
  extra: { metadata?: Record<string, unknown>; user_id?: string } = {},
  as: MemdClient = memd,
) => {
  clock.advance(1000);
  return (await as.memories.create({ workspace_id, content, ...extra })).memory.id;
};

/** Where the reply ranks for the question's words, and whether conversation context put it there. */
const replyFound = async (ws: string, replyId: string) => {
  const found = await recall(ws, ASKED);
  const reply = found.find((m) => m.id === replyId);
  return { found: reply !== undefined, context: reply?.match_signals.includes('context') ?? false };
};

describe('conversation adjacency without the client’s help (issue 20)', () => {
  it('a batch is a conversation in its order: the reply after the question is found right after the write', async () => {
    const ws = await workspace();
    const ids = await batch(ws, turns([FILLER[0]!, QUESTION, REPLY, FILLER[1]!, FILLER[2]!]));
    // Nothing enriched yet: no task has run (the test server runs tasks only when drained).
    expect(await replyFound(ws, ids[2]!)).toEqual({ found: true, context: true });
  });

  it('a batch of statements, no speaker named, is a list and not a conversation', async () => {
    const ws = await workspace();
    const ids = await batch(ws, [FILLER[0]!, QUESTION, REPLY, FILLER[1]!, FILLER[2]!]);
    expect(await replyFound(ws, ids[2]!)).toEqual({ found: false, context: false });
    // The speaker in metadata makes the same lines turns.
    const named = await workspace();
    const turnIds = await batch(named, [FILLER[0]!, QUESTION, REPLY, FILLER[1]!, FILLER[2]!], (i) => ({
      speaker: i % 2 === 0 ? 'Ana' : 'Ben',
    }));
    expect(await replyFound(named, turnIds[2]!)).toEqual({ found: true, context: true });
  });

  it('turns written one call each, as a chat client writes messages, are a conversation within the hour', async () => {
    const ws = await workspace();
    const [before, question, reply, after] = turns([FILLER[0]!, QUESTION, REPLY, FILLER[1]!]);
    await write(ws, before!);
    await write(ws, question!);
    const replyId = await write(ws, reply!);
    await write(ws, after!);
    expect(await replyFound(ws, replyId)).toEqual({ found: true, context: true });
    // The reply an hour and more after the question is another sitting.
    const later = await workspace();
    await write(later, question!);
    clock.advance(HOUR + 1000);
    const lateReply = await write(later, reply!);
    expect(await replyFound(later, lateReply)).toEqual({ found: false, context: false });
  });

  it('turns of two users in one context, written in between each other, are two conversations', async () => {
    const ws = await workspace();
    const [question, reply] = turns([QUESTION, REPLY]);
    await write(ws, question!, { user_id: 'user-ana' });
    await write(ws, turns([FILLER[0]!])[0]!, { user_id: 'user-ben' });
    const replyId = await write(ws, reply!, { user_id: 'user-ana' });
    expect(await replyFound(ws, replyId)).toEqual({ found: true, context: true });
    // The same reply from another user does not answer the question.
    const other = await workspace();
    await write(other, question!, { user_id: 'user-ana' });
    const strayId = await write(other, reply!, { user_id: 'user-ben' });
    expect(await replyFound(other, strayId)).toEqual({ found: false, context: false });
  });

  it('separate writes of statements without a session or a name are not a conversation, however close in time', async () => {
    const ws = await workspace();
    await write(ws, FILLER[0]!);
    await write(ws, QUESTION);
    const reply = await write(ws, REPLY);
    await write(ws, FILLER[1]!);
    expect(await replyFound(ws, reply)).toEqual({ found: false, context: false });
  });

  it('a batch spanning two sittings (dated apart in metadata) is two conversations', async () => {
    const ws = await workspace();
    const ids = await batch(ws, turns([QUESTION, REPLY, FILLER[0]!]), (i) => ({
      session_date: i === 0 ? '8 May 2023' : '25 May 2023',
    }));
    expect(await replyFound(ws, ids[1]!)).toEqual({ found: false, context: false });
  });

  it('metadata naming the conversation: turns written separately, out of order and a day apart, ordered by turn number', async () => {
    const ws = await workspace();
    const reply = await write(ws, REPLY, { metadata: { conversation_id: 'garage-chat', turn: 2 } });
    await write(ws, FILLER[0]!, { metadata: { conversation_id: 'other-chat', turn: 1 } });
    clock.advance(25 * HOUR);
    await write(ws, QUESTION, { metadata: { conversation_id: 'garage-chat', turn: 1 } });
    await write(ws, FILLER[1]!, { metadata: { conversation_id: 'garage-chat', turn: 3 } });
    expect(await replyFound(ws, reply)).toEqual({ found: true, context: true });
    // The same turns under another conversation's name are not its neighbours.
    const elsewhere = await workspace();
    const stray = await write(elsewhere, REPLY, { metadata: { conversation_id: 'other-chat', turn: 2 } });
    await write(elsewhere, QUESTION, { metadata: { conversation_id: 'garage-chat', turn: 1 } });
    expect(await replyFound(elsewhere, stray)).toEqual({ found: false, context: false });
  });

  it('a session: turns written one by one through X-Session-ID', async () => {
    const ws = await workspace();
    const sitting = memd.withSession((await memd.sessions.start({ workspace_id: ws })).session.id);
    const [filler, question, answer] = turns([FILLER[0]!, QUESTION, REPLY]);
    await write(ws, filler!, {}, sitting);
    await write(ws, question!, {}, sitting);
    const reply = await write(ws, answer!, {}, sitting);
    expect(await replyFound(ws, reply)).toEqual({ found: true, context: true });
  });

  it('statements written through a session (an agent noting facts as it works) are not a conversation', async () => {
    const ws = await workspace();
    const working = memd.withSession((await memd.sessions.start({ workspace_id: ws })).session.id);
    await write(ws, FILLER[0]!, {}, working);
    await write(ws, QUESTION, {}, working);
    const reply = await write(ws, REPLY, {}, working);
    await write(ws, FILLER[1]!, {}, working);
    expect(await replyFound(ws, reply)).toEqual({ found: false, context: false });
  });
});

describe('a question turn lends its score to the reply more than to the turns before it', () => {
  it('the turns before a matching question do not push out a memory found by its own words', async () => {
    const ws = await workspace();
    // One sitting: two turns of small talk, the question, its reply. Another, hours later: a turn saying some of the
    // words asked, and small talk.
    const [, , question, reply] = await batch(
      ws,
      turns(['The trail was muddy after all that rain.', 'We should have packed the boots.', QUESTION, REPLY]),
    );
    clock.advance(5 * HOUR);
    const [said] = await batch(ws, turns(['Restoring a vintage motorcycle takes patience.', FILLER[0]!]));
    const found = (await recall(ws, ASKED, { limit: 3 })).map((m) => m.id);
    expect(found).toEqual([question, reply, said]);
  });
});

describe('a shorter answer is the head of a longer one', () => {
  it('the top 10 of a limit-25 answer is the limit-10 answer, and so for 5 and 20', async () => {
    const ws = await workspace();
    // A fixed corpus where many memories share some of the query's words, in batches of turns (so conversation
    // context, expansion over links and every arm have a say), with links between some of them.
    const subjects = ['garden', 'kitchen', 'garage', 'studio', 'office', 'attic', 'cellar', 'porch'];
    const things = ['lamp', 'shelf', 'bicycle', 'piano', 'clock', 'mirror', 'rug', 'kettle', 'ladder', 'heater'];
    const contents = subjects.flatMap((room, r) =>
      things.map(
        (thing, t) =>
          `${t % 2 === 0 ? 'Ana' : 'Ben'}: The ${thing} in the ${room} ${(r + t) % 3 === 0 ? 'needs repair before the party' : (r * t) % 4 === 1 ? 'was bought at the flea market' : `stands next to the ${things[(t + r) % things.length]}`}.`,
      ),
    );
    const ids: string[] = [];
    for (let i = 0; i < contents.length; i += 20) ids.push(...(await batch(ws, contents.slice(i, i + 20))));
    for (let i = 0; i + 7 < ids.length; i += 7) {
      expect(
        (
          await memd.memories.associate.withResponse(ids[i]!, {
            workspace_id: ws,
            target_id: ids[i + 7]!,
            relationship: 'references',
            strength: 0.9,
          })
        ).status,
      ).toBe(201);
    }
    const queries = [
      'Which lamp needs repair before the party?',
      'bicycle bought at the flea market',
      'what stands next to the piano in the studio',
      'kettle garage ladder repair',
      'Where is the mirror?',
    ];
    for (const query of queries) {
      const answers = new Map<number, string[]>();
      for (const limit of [5, 10, 20, 25])
        answers.set(
          limit,
          (await recall(ws, query, { limit, min_relevance: 0 })).map((m) => m.id),
        );
      expect(answers.get(25)!.length, query).toBe(25);
      for (const limit of [5, 10, 20])
        expect(answers.get(limit), `${query} at limit ${limit}`).toEqual(answers.get(25)!.slice(0, limit));
    }
  });
});
