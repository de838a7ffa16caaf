import { describe, expect, it } from 'vitest';
import {
  asksQuestion,
  conversationNeighbours,
  hasConversation,
  opensWithSpeaker,
} from '../../../src/core/recall/conversation.js';
import type { WrittenMemory } from '../../../src/storage/types.js';

const HOUR = 3_600_000;
let seq = 0;
const written = (id: string, overrides: Partial<WrittenMemory> = {}): WrittenMemory => ({
  id,
  seq: ++seq,
  content: `Ana: turn ${id}`,
  context_id: '_default',
  user_id: null,
  subject_id: null,
  source_scope: null,
  source_memory_id: null,
  session_id: null,
  metadata: {},
  occurred_at: null,
  created_at: '2024-05-02T09:00:00.000Z',
  mentions: null,
  ...overrides,
});

/** Neighbours of `anchor` among `all` as [offset, id], nearest first. */
const around = (anchor: WrittenMemory, all: WrittenMemory[], span = 2) =>
  conversationNeighbours([anchor.id], all, { span, withinMs: HOUR }).map((n) => [n.offset, n.id]);

describe('conversation adjacency', () => {
  it('without a session or a name: turns in one context for one user in write order, a batch or a call each, within the hour', () => {
    const batch = '2024-05-02T09:00:00.000Z';
    const a = written('a', { created_at: batch });
    const b = written('b', { created_at: batch });
    const otherContext = written('x', { context_id: 'elsewhere', created_at: batch });
    const c = written('c', { created_at: batch });
    const nextCall = written('n', { created_at: '2024-05-02T09:00:01.000Z' });
    const muchLater = written('m', { created_at: '2024-05-02T10:30:00.000Z' });
    const all = [a, b, otherContext, c, nextCall, muchLater];
    expect(around(b, all)).toEqual([
      [-1, 'a'],
      [1, 'c'],
      [2, 'n'],
    ]);
    // A chat client writing each message as it comes: the next call's turn follows the batch's last.
    expect(around(nextCall, all)).toEqual([
      [-1, 'c'],
      [-2, 'b'],
    ]);
    // More than an hour on is another sitting.
    expect(around(muchLater, all)).toEqual([]);
    // Another user's chat in the same context, written in between, is another conversation.
    const ana = written('ana', { user_id: 'user-ana' });
    const bob = written('bob', { user_id: 'user-bob' });
    const ana2 = written('ana2', { user_id: 'user-ana' });
    expect(around(ana2, [ana, bob, ana2])).toEqual([[-1, 'ana']]);
    // Statements written one by one are not turns: unrelated notes saved one after the other stay apart.
    const notes = ['The garage door remote needs a new battery.', 'Saffron risotto takes twenty minutes.'].map(
      (content, i) => written(`note${i}`, { content, created_at: `2024-05-02T09:0${i}:00.000Z` }),
    );
    expect(around(notes[1]!, notes)).toEqual([]);
  });

  it('a batch of statements is not a conversation; a batch of turns is, by their speaker labels or metadata', () => {
    const batch = '2024-05-02T09:00:00.000Z';
    const facts = [
      'On 8 September 2019, Anouk Holm tested a tiny necklace in Montreal.',
      'Teodor Yamada works as a potter in Graz.',
      'Zofia likes jazz.',
    ].map((content, i) => written(`f${i}`, { content, created_at: batch }));
    expect(around(facts[1]!, facts)).toEqual([]);
    const turns = [
      written('t0', { content: 'Caroline: I went to a support group yesterday.', created_at: batch }),
      written('t1', { content: '5 years already!', metadata: { speaker: 'Melanie' }, created_at: batch }),
      written('t2', { content: 'user: what did I say about the trip?', created_at: batch }),
    ];
    expect(around(turns[1]!, turns)).toEqual([
      [-1, 't0'],
      [1, 't2'],
    ]);
    // A statement written in the same call as turns is not one of them.
    expect(around(facts[0]!, [...turns, facts[0]!])).toEqual([]);
  });

  it('the event time says the sitting: turns dated apart are not neighbours though written together', () => {
    const a = written('a', { occurred_at: '2023-05-08T13:56:00.000Z' });
    const b = written('b', { occurred_at: '2023-05-08T13:56:00.000Z' });
    const c = written('c', { occurred_at: '2023-05-25T13:14:00.000Z' });
    expect(around(b, [a, b, c])).toEqual([[-1, 'a']]);
  });

  it('a session: its own memories, written separately, within the hour; not unsessioned writes next to them', () => {
    const a = written('a', { session_id: 's1', created_at: '2024-05-02T09:00:00.000Z' });
    const loose = written('loose', { created_at: '2024-05-02T09:01:00.000Z' });
    const otherSession = written('o', { session_id: 's2', created_at: '2024-05-02T09:02:00.000Z' });
    const b = written('b', { session_id: 's1', created_at: '2024-05-02T09:03:00.000Z' });
    const late = written('late', { session_id: 's1', created_at: '2024-05-02T11:00:00.000Z' });
    expect(around(a, [a, loose, otherSession, b, late])).toEqual([[1, 'b']]);
    expect(around(loose, [a, loose, otherSession, b, late])).toEqual([]);
  });

  it('a session: statements written in it are not turns, and neighbour nothing', () => {
    const note = (id: string) => written(id, { session_id: 's1', content: `The deploy takes ${id} minutes.` });
    const [a, b, c] = [note('a'), note('b'), written('c', { session_id: 's1' })];
    expect(around(b, [a, b, c])).toEqual([]);
    expect(around(c, [a, b, c])).toEqual([]);
  });

  it('metadata naming a conversation: its turns only, however far apart in time, ordered by turn number when given', () => {
    const t2 = written('t2', { metadata: { conversation_id: 'c1', turn: 2 }, created_at: '2024-05-01T09:00:00.000Z' });
    const t1 = written('t1', {
      metadata: { conversation_id: 'c1', turn: '1' },
      created_at: '2024-05-01T09:00:00.000Z',
    });
    const other = written('o', { metadata: { conversation_id: 'c2', turn: 3 } });
    const unnamed = written('u');
    const t3 = written('t3', { metadata: { conversation_id: 'c1', turn: 3 }, created_at: '2024-05-09T09:00:00.000Z' });
    const t5 = written('t5', { metadata: { conversation_id: 'c1', turn: 5 }, created_at: '2024-05-09T09:00:00.000Z' });
    const all = [t2, t1, other, unnamed, t3, t5];
    expect(around(t2, all)).toEqual([
      [-1, 't1'],
      [1, 't3'],
    ]);
    // Turn 4 was never written: turn 5 is two turns after 3.
    expect(around(t3, all)).toEqual([
      [-1, 't2'],
      [-2, 't1'],
      [2, 't5'],
    ]);
    const thread = [
      written('m1', { metadata: { thread_id: 7 } }),
      written('m2', { metadata: { thread_id: 7 }, created_at: '2024-06-01T00:00:00.000Z' }),
    ];
    expect(around(thread[1]!, [...thread, unnamed])).toEqual([[-1, 'm1']]);
  });

  it('reads only what is within reach of the anchor, so that no unread turn is skipped over', () => {
    const anchor = written('anchor', { seq: 100 });
    const others = [101, 102].map((at) => written(`other${at}`, { seq: at, context_id: 'elsewhere' }));
    const next = written('next', { seq: 103 });
    // span 1 reads 2 places each side: the batch's next memory, 3 places on, is out of reach; span 2 reads 4.
    expect(around(anchor, [anchor, ...others, next], 1)).toEqual([]);
    expect(around(anchor, [anchor, ...others, next], 2)).toEqual([[1, 'next']]);
  });
});

describe('asksQuestion', () => {
  it('a turn ending with a question asks one, closing quotes and brackets aside', () => {
    expect(asksQuestion('Caroline: Books have such power! Which one has been your favorite guide?')).toBe(true);
    expect(asksQuestion('Ben: Did she really say “see you in June?”  ')).toBe(true);
    expect(asksQuestion('Ana: (you know which one?)')).toBe(true);
  });

  it('a question in the middle of a turn, or none, is no question the turn ends on', () => {
    expect(asksQuestion('Ana: Why not? I loved "Becoming Nicole" by Amy Ellis Nutt.')).toBe(false);
    expect(asksQuestion('Ben: Eleven years now.')).toBe(false);
    expect(asksQuestion('')).toBe(false);
  });
});

describe('hasConversation', () => {
  it('a turn by its speaker label or metadata, or a memory of a named conversation, has one', () => {
    expect(opensWithSpeaker('Caroline: I went to the support group yesterday.')).toBe(true);
    expect(hasConversation({ content: 'Caroline: I went to the support group.', metadata: {} })).toBe(true);
    expect(hasConversation({ content: 'I went to the support group.', metadata: { speaker: 'Caroline' } })).toBe(true);
    expect(hasConversation({ content: 'Deploys freeze on Fridays.', metadata: { thread_id: 'ops-42' } })).toBe(true);
  });

  it('a statement has none, whatever is written around it', () => {
    const statement = 'On 8 September 2019, Anouk Holm tested a tiny necklace in Montreal.';
    expect(opensWithSpeaker(statement)).toBe(false);
    expect(hasConversation({ content: statement, metadata: {} })).toBe(false);
    expect(hasConversation({ content: statement, metadata: { speaker: '', merged_from: [] } })).toBe(false);
    // Alone among turns of one batch: the turns around it are not its neighbours.
    const note = written('note', { content: statement });
    expect(around(note, [written('before'), note, written('after')])).toEqual([]);
  });
});
