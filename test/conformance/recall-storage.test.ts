import { afterAll, describe, expect, it } from 'vitest';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { KeywordTerm } from '../../src/storage/types.js';
import { association, axisVector, memory, workspace } from '../support/records.js';
import { bestEffortCandidates } from '../../src/storage/sql/search-engine.js';
import { storageBackends } from '../support/storage-backends.js';

const DIMS = 8;
const EPOCH = '1970-01-01T00:00:00.000Z';
const END_OF_TIME = '9999-12-31T23:59:59.999Z';
const DAY = 86_400_000;

/** Storage the recall engine relies on beyond the foundation's: every engine must agree. */
describe.each(storageBackends())('recall storage: $name', (backend) => {
  afterAll(() => backend.teardown());

  async function fresh(): Promise<SqlStorage> {
    const storage = await backend.open(DIMS);
    await storage.engine.warmUp(storage.sqlContext.db);
    await storage.workspaces.create(workspace('ws_a'));
    await storage.workspaces.create(workspace('ws_b'));
    return storage;
  }

  /** A memory of each of `texts` in ws_a, each with an axis vector, inserted; their rows. */
  async function inserted(s: SqlStorage, texts: readonly string[]) {
    const rows = texts.map((t, i) => memory('ws_a', t, axisVector(DIMS, i % DIMS)));
    await s.memories.insert(rows);
    return rows;
  }

  it('keyword search: required terms anchor, several words make a phrase', async () => {
    const s = await fresh();
    const anchored = memory('ws_a', 'Melanie signed up for a pottery class', axisVector(DIMS, 0));
    const unanchored = memory('ws_a', 'The pottery class was full', axisVector(DIMS, 1));
    const apart = memory('ws_a', 'Melanie went to class, then to the pottery shop', axisVector(DIMS, 2));
    const other = memory('ws_b', 'Melanie loves pottery class', axisVector(DIMS, 3));
    await s.memories.insert([anchored, unanchored, apart, other]);
    const ids = async (terms: string[], required?: string[]) =>
      (await s.memories.keywordSearch('ws_a', terms, { k: 10, ...(required && { required }) })).map((r) => r.id).sort();
    expect(await ids(['pottery'], ['Melanie'])).toEqual([anchored.id, apart.id].sort());
    expect(await ids([], ['Melanie'])).toEqual([anchored.id, apart.id].sort());
    expect(await ids(['pottery class'])).toEqual([anchored.id, unanchored.id].sort());
    expect(await ids(['pottery class'], ['melanie'])).toEqual([anchored.id]);
    expect(await ids(['class'], ['Melanie', 'shop'])).toEqual([apart.id]);
    expect(await ids([], [])).toEqual([]);
    await s.close();
  });

  it('keyword hits come with their ranking columns and their vector’s similarity to a given vector, best first', async () => {
    const s = await fresh();
    const close = memory('ws_a', 'Heron at the lake, heron at dusk', axisVector(DIMS, 0, 0.5), {
      session_id: 'ses_1',
      occurred_at: '2024-04-01T07:00:00.000Z',
    });
    const far = memory('ws_a', 'A heron nest was found near the old mill by the river bank today', axisVector(DIMS, 3));
    await s.memories.insert([close, far]);
    const query = axisVector(DIMS, 0);
    const hits = await s.memories.keywordSearch('ws_a', ['heron'], { k: 10, similarTo: query });
    expect(hits.map((h) => h.id)).toEqual([close.id, far.id]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.memory).toEqual({
      id: close.id,
      seq: expect.any(Number),
      content: close.content,
      context_id: close.context_id,
      session_id: 'ses_1',
      subject_id: null,
      source_scope: null,
      source_memory_id: null,
      occurred_at: '2024-04-01T07:00:00.000Z',
      created_at: close.created_at,
      mentions: null,
    });
    // cos(query, close) = 1 / |(1, 0.5)|; far is orthogonal to the query.
    expect(hits[0]!.similarity).toBeCloseTo(1 / Math.hypot(1, 0.5), 5);
    expect(hits[1]!.similarity).toBeCloseTo(0, 5);
    expect((await s.memories.keywordSearch('ws_a', ['heron'], { k: 1 })).map((h) => [h.id, h.similarity])).toEqual([
      [close.id, null],
    ]);
    await s.close();
  });

  it('reads ranking candidates by id, within the workspace, through the filter, with event time as ISO text and similarity when asked', async () => {
    const s = await fresh();
    const plain = memory('ws_a', 'plain', axisVector(DIMS, 0, 0.5), { created_at: '2024-03-10T10:00:00.000Z' });
    const fact = memory('ws_a', 'fact', axisVector(DIMS, 1), {
      source_scope: 'fact',
      occurred_at: '2024-05-02T09:00:00.000Z',
    });
    const elsewhere = memory('ws_b', 'elsewhere', axisVector(DIMS, 2));
    await s.memories.insert([plain, fact, elsewhere]);
    const all = await s.memories.candidates('ws_a', [plain.id, fact.id, elsewhere.id, 'mem_missing']);
    expect(all.sort((a, b) => a.memory.content.localeCompare(b.memory.content))).toEqual([
      {
        memory: {
          id: fact.id,
          seq: expect.any(Number),
          content: 'fact',
          context_id: fact.context_id,
          session_id: null,
          subject_id: null,
          source_scope: 'fact',
          source_memory_id: null,
          occurred_at: '2024-05-02T09:00:00.000Z',
          created_at: fact.created_at,
          mentions: null,
        },
        similarity: null,
      },
      {
        memory: {
          id: plain.id,
          seq: expect.any(Number),
          content: 'plain',
          context_id: plain.context_id,
          session_id: null,
          subject_id: null,
          source_scope: null,
          source_memory_id: null,
          occurred_at: null,
          created_at: '2024-03-10T10:00:00.000Z',
          mentions: null,
        },
        similarity: null,
      },
    ]);
    // Write order: plain was inserted before the fact.
    expect(all[1]!.memory.seq).toBeLessThan(all[0]!.memory.seq);
    const originals = await s.memories.candidates('ws_a', [plain.id, fact.id], {
      filter: { excludeSourceScopes: ['fact'] },
      similarTo: axisVector(DIMS, 0),
    });
    expect(originals.map((c) => c.memory.id)).toEqual([plain.id]);
    // cos(axis 0, plain) = 1 / |(1, 0.5)|
    expect(originals[0]!.similarity).toBeCloseTo(1 / Math.hypot(1, 0.5), 5);
    expect(await s.memories.candidates('ws_a', [])).toEqual([]);
    await s.close();
  });

  it('best effort: a filtered search answers from the nearest vectors, an exact one from everything the filter allows', async () => {
    const s = await fresh();
    const near = Array.from({ length: bestEffortCandidates(3) + 10 }, (_, i) =>
      memory('ws_a', `january ${i}`, axisVector(DIMS, 0, i / 1000), { occurred_at: '2024-01-15T09:00:00.000Z' }),
    );
    const far = [1, 2, 3].map((i) =>
      memory('ws_a', `june ${i}`, axisVector(DIMS, 4, i / 10), { occurred_at: '2024-06-15T09:00:00.000Z' }),
    );
    await s.memories.insert([...near, ...far]);
    const june = { during: { start: '2024-06-01T00:00:00.000Z', end: '2024-06-30T23:59:59.999Z' } };
    const search = async (bestEffort: boolean) =>
      (await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 3, filter: june, bestEffort }))
        .map((r) => r.id)
        .sort();
    expect(await search(false)).toEqual(far.map((m) => m.id).sort());
    // June's memories are nowhere near the query: the nearest are all January's.
    expect(await search(true)).toEqual([]);
    const january = { during: { start: EPOCH, end: '2024-01-31T23:59:59.999Z' } };
    expect(
      await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 3, filter: january, bestEffort: true }),
    ).toHaveLength(3);
    await s.close();
  });

  it('counts keyword matches up to a cap, for single terms, phrases and terms together', async () => {
    const s = await fresh();
    const texts = [
      'red apples in the basket',
      'red cars in the street',
      'red apples and green pears',
      'a red sky',
      'blue apples do not exist',
    ];
    await inserted(s, texts);
    const counts = await s.memories.keywordMatchCounts(
      'ws_a',
      [['red'], ['apples'], ['red apples'], ['red', 'apples'], ['purple'], []],
      { cap: 2 },
    );
    expect(counts).toEqual([3, 3, 2, 2, 0, 0]); // 4 and 3 matches are over the cap: reported as cap + 1
    expect(await s.memories.keywordMatchCounts('ws_a', [['red']], { cap: 10 })).toEqual([4]);
    // Alternatives: any of them will do ("apples" or "pears", and "red").
    expect(
      await s.memories.keywordMatchCounts('ws_a', [[['pears', 'sky'], 'red'], [['pears', 'apples']]], { cap: 10 }),
    ).toEqual([2, 3]);
    await s.close();
  });

  it('counts keyword matches and entries among the workspace\u2019s own memories, whatever another holds', async () => {
    const s = await fresh();
    await inserted(s, ['red apples in the basket', 'green pears', 'red apples and a red kite']);
    const counts = async () => ({
      matches: await s.memories.keywordMatchCounts('ws_a', [['red'], ['kite'], ['red', 'apples'], ['sky']], { cap: 1 }),
      entries: await s.memories.keywordDocumentCount('ws_a'),
    });
    const aloneInIndex = await counts();
    expect(aloneInIndex).toEqual({ matches: [2, 1, 2, 0], entries: 3 });
    // A few memories of another workspace (their matches taken from the index's), then many (counted by a join).
    const theirs = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => memory('ws_b', `red kite number ${from + i}`, axisVector(DIMS, i % DIMS)));
    await s.memories.insert(theirs(0, 4));
    expect(await counts()).toEqual(aloneInIndex);
    expect(await s.memories.keywordMatchCounts('ws_b', [['red'], ['kite'], ['pears']], { cap: 10 })).toEqual([4, 4, 0]);
    expect(await s.memories.keywordDocumentCount('ws_b')).toBe(4);
    await s.memories.insert(theirs(4, 296));
    expect(await counts()).toEqual(aloneInIndex);
    expect(await s.memories.keywordMatchCounts('ws_b', [['red'], ['apples']], { cap: 1_000 })).toEqual([300, 0]);
    expect(await s.memories.keywordDocumentCount('ws_b')).toBe(300);
    await s.close();
  });

  it('match counts that share terms: as counted one at a time, capped alike, stop words and all', async () => {
    const s = await fresh();
    const texts = [
      'red apples on the table',
      'red apples and pears',
      'red pears',
      'red kite over the hill',
      'a red kite and red apples',
      'green apples',
      'we have red apples',
    ];
    await inserted(s, texts);
    // Many counts sharing "red" (a recall checking words each beside the query's others), one sharing alternatives.
    const beside = (shared: KeywordTerm[]): KeywordTerm[][] =>
      [['apples'], ['pears'], ['kite'], [['hill', 'table']], ['purple'], ['pears', 'apples']].map((own) => [
        ...own,
        ...shared,
      ]);
    const oneAtATime = async (queries: KeywordTerm[][], cap: number) =>
      (await Promise.all(queries.map((q) => s.memories.keywordMatchCounts('ws_a', [q], { cap })))).flat();
    const asked = beside(['red']);
    expect(await s.memories.keywordMatchCounts('ws_a', asked, { cap: 10 })).toEqual([4, 2, 2, 2, 0, 1]);
    expect(await s.memories.keywordMatchCounts('ws_a', asked, { cap: 2 })).toEqual([3, 2, 2, 2, 0, 1]);
    for (const shared of [
      ['red'],
      [['red', 'green']],
      ['red', 'apples'],
      ['have'],
      ['the', 'red'],
    ] as KeywordTerm[][]) {
      const queries = beside(shared);
      for (const cap of [1, 10])
        expect(await s.memories.keywordMatchCounts('ws_a', queries, { cap })).toEqual(await oneAtATime(queries, cap));
    }
    await s.close();
  });

  it('match counts that share terms held by many memories: every one counted, not only the first thousand', async () => {
    const s = await fresh();
    const texts = Array.from({ length: 1_100 }, (_, i) => (i < 1_050 ? `red apples number ${i}` : `red pears ${i}`));
    await inserted(s, texts);
    const asked: KeywordTerm[][] = [['apples'], ['pears'], ['kite'], ['plums']].map((own) => [...own, 'red']);
    expect(await s.memories.keywordMatchCounts('ws_a', asked, { cap: 2_000 })).toEqual([1_050, 50, 0, 0]);
    expect(await s.memories.keywordMatchCounts('ws_a', asked, { cap: 100 })).toEqual([101, 50, 0, 0]);
    await s.close();
  });

  it('keyword search: a required term may be alternatives; newest first scores nothing; the index counts its memories', async () => {
    const s = await fresh();
    const texts = [
      'Dave bought a bicycle in Lyon',
      'Dave will buy a bicycle in Lyon',
      'Dave sold a bicycle in Lyon',
      'Erin bought a kite in Lyon',
    ];
    const rows = await inserted(s, texts);
    const search = async (required: Array<string | string[]>, order: 'relevance' | 'newest') =>
      s.memories.keywordSearch('ws_a', [], { k: 10, required, order });
    const newest = await search(['dave', ['buy', 'bought'], 'bicycle'], 'newest');
    expect(newest.map((h) => h.id)).toEqual([rows[1]!.id, rows[0]!.id]);
    expect(newest.map((h) => h.score)).toEqual([0, 0]);
    const scored = await search(['dave', ['buy', 'bought'], 'bicycle'], 'relevance');
    expect(scored).toHaveLength(2);
    expect(scored.every((h) => h.score > 0)).toBe(true);
    expect((await search(['lyon'], 'newest')).map((h) => h.id)).toEqual(rows.map((r) => r.id).reverse());
    // At least the workspace's active originals (SQLite's index is shared by all workspaces).
    expect(await s.memories.keywordDocumentCount('ws_a')).toBeGreaterThanOrEqual(4);
    await s.close();
  });

  it('nearest holding a term: the k nearest of its newest matches, nearest first, within the workspace and filter', async () => {
    const s = await fresh();
    // Dave's memories written in order 0..4, each a step further from axis 0; Erin's is the nearest of all.
    const dave = [0, 0.3, 0.6, 0.9, 1.2].map((spill, i) =>
      memory('ws_a', `Dave note ${i}`, axisVector(DIMS, 0, spill), { status: i === 1 ? 'archived' : 'active' }),
    );
    const erin = memory('ws_a', 'Erin note', axisVector(DIMS, 0));
    const elsewhere = memory('ws_b', 'Dave note elsewhere', axisVector(DIMS, 0));
    await s.memories.insert([...dave, erin, elsewhere]);
    const nearest = async (scan: number, k: number) =>
      (await s.memories.nearestHolding('ws_a', ['dave'], axisVector(DIMS, 0), { scan, k })).map((h) => h.id);
    expect(await nearest(10, 2)).toEqual([dave[0]!.id, dave[2]!.id]);
    // Only the newest `scan` matches are measured: of the last two written, the nearer first.
    expect(await nearest(2, 5)).toEqual([dave[3]!.id, dave[4]!.id]);
    const hits = await s.memories.nearestHolding('ws_a', ['dave'], axisVector(DIMS, 0), { scan: 10, k: 1 });
    expect(hits[0]!.score).toBeCloseTo(1, 5);
    expect(hits[0]!.similarity).toBe(hits[0]!.score);
    expect(hits[0]!.memory.content).toBe('Dave note 0');
    expect(
      await s.memories.nearestHolding('ws_a', ['dave'], axisVector(DIMS, 0), {
        scan: 10,
        k: 10,
        filter: { statuses: ['archived'] },
      }),
    ).toMatchObject([{ id: dave[1]!.id }]);
    expect(await s.memories.nearestHolding('ws_a', [], axisVector(DIMS, 0), { scan: 10, k: 10 })).toEqual([]);
    await s.close();
  });

  it('filters by source scope (null-safe) and by event time, which falls back to the creation time', async () => {
    const s = await fresh();
    const plain = memory('ws_a', 'plain', axisVector(DIMS, 0), { created_at: '2024-03-10T10:00:00.000Z' });
    const fact = memory('ws_a', 'fact', axisVector(DIMS, 0, 0.1), {
      source_scope: 'fact',
      occurred_at: '2024-05-02T09:00:00.000Z',
    });
    const session = memory('ws_a', 'session', axisVector(DIMS, 0, 0.2), {
      source_scope: 'session',
      occurred_at: '2024-05-20T09:00:00.000Z',
    });
    await s.memories.insert([plain, fact, session]);
    const ids = async (filter: object) =>
      (await s.memories.vectorSearch('ws_a', axisVector(DIMS, 0), { k: 10, filter })).map((r) => r.id).sort();
    expect(await ids({ sourceScopes: ['fact'] })).toEqual([fact.id]);
    expect(await ids({ sourceScopes: [] })).toEqual([]);
    expect(await ids({ excludeSourceScopes: ['fact'] })).toEqual([plain.id, session.id].sort());
    expect(await ids({ during: { start: '2024-05-01T00:00:00.000Z', end: '2024-05-31T23:59:59.999Z' } })).toEqual(
      [fact.id, session.id].sort(),
    );
    expect(await ids({ during: { start: EPOCH, end: '2024-04-01T00:00:00.000Z' } })).toEqual([plain.id]);
    expect(
      (
        await s.memories.keywordSearch('ws_a', ['plain', 'fact', 'session'], {
          k: 10,
          filter: { excludeSourceScopes: ['fact'], during: { start: '2024-05-01T00:00:00.000Z', end: END_OF_TIME } },
        })
      ).map((r) => r.id),
    ).toEqual([session.id]);
    await s.close();
  });

  it('a window finds memories by the days their text names, and memories written before the column are read later', async () => {
    const s = await fresh();
    const december = (day: number) => ({
      start: `2026-12-${String(day).padStart(2, '0')}T00:00:00.000Z`,
      end: `2026-12-${String(day).padStart(2, '0')}T23:59:59.999Z`,
    });
    const flight = memory('ws_a', 'Flight to Lisbon on 14 December', axisVector(DIMS, 0), { mentions: december(14) });
    const offsite = memory('ws_a', 'Offsite on Thursday and Friday', axisVector(DIMS, 1), {
      mentions: { start: december(10).start, end: december(11).end },
    });
    const undated = memory('ws_a', 'I like Thai food', axisVector(DIMS, 2));
    const elsewhere = memory('ws_b', 'Flight to Oslo on 14 December', axisVector(DIMS, 3), { mentions: december(14) });
    await s.memories.insert([flight, offsite, undated, elsewhere]);
    const mentioning = async (start: string, end: string, limit = 10) =>
      (await s.memories.mentioning('ws_a', { start, end }, { limit, maxSpanMs: 400 * DAY })).sort();
    expect(await mentioning(december(14).start, december(14).end)).toEqual([flight.id]);
    // A window overlapping a span's last day finds it; one of the week finds both.
    expect(await mentioning(december(11).start, december(11).end)).toEqual([offsite.id]);
    expect(await mentioning(december(7).start, december(13).end)).toEqual([offsite.id]);
    expect(await mentioning(december(7).start, december(20).end)).toEqual([flight.id, offsite.id].sort());
    expect(await mentioning(december(7).start, december(20).end, 1)).toHaveLength(1);
    expect(await mentioning(december(1).start, december(9).end)).toEqual([]);
    // The filter: the event time (created now) or a named day in the window.
    const during = async (start: string, end: string) =>
      (await s.memories.list('ws_a', { during: { start, end } }, { limit: 10 })).items.map((m) => m.id).sort();
    expect(await during(december(14).start, december(14).end)).toEqual([flight.id]);
    expect(await during(EPOCH, END_OF_TIME)).toEqual([flight.id, offsite.id, undated.id].sort());
    // Read as the recall reads them.
    const [row] = await s.memories.candidates('ws_a', [flight.id]);
    expect(row!.memory.mentions).toEqual(december(14));

    // Every memory written here was read; one written before the columns existed is not, until it is.
    expect(await s.memories.mentionsUnread(10)).toEqual([]);
    await s.sqlContext.db.updateTable('memories').set({ mentions_read: 0 }).where('id', '=', undated.id).execute();
    const unread = await s.memories.mentionsUnread(10);
    expect(unread.map((m) => [m.id, m.workspace_id, m.content])).toEqual([[undated.id, 'ws_a', 'I like Thai food']]);
    await s.transaction((tx) => tx.memories.setMentions([{ id: undated.id, mentions: december(3) }]));
    expect(await s.memories.mentionsUnread(10)).toEqual([]);
    expect(await mentioning(december(3).start, december(3).end)).toEqual([undated.id]);
    await s.close();
  });

  it('written around: the memories within reach of given write positions, in write order, that pass the filter', async () => {
    const s = await fresh();
    const turn = (i: number, overrides = {}) =>
      memory('ws_a', `turn ${i}`, axisVector(DIMS, i % DIMS), {
        session_id: 's1',
        metadata: { turn: i },
        occurred_at: '2024-05-02T09:00:00.000Z',
        ...overrides,
      });
    const turns = Array.from({ length: 9 }, (_, i) => turn(i + 1, i === 4 ? { status: 'deleted' } : {}));
    const foreign = memory('ws_b', 'foreign turn', axisVector(DIMS, 0));
    for (const m of [...turns.slice(0, 5), foreign, ...turns.slice(5)]) await s.memories.insert([m]);
    // Candidates carry their write position.
    const seqOf = async (id: string) => (await s.memories.candidates('ws_a', [id]))[0]!.memory.seq;
    const third = await seqOf(turns[2]!.id);
    const last = await seqOf(turns[8]!.id);
    expect(last).toBeGreaterThan(third);
    const around = await s.memories.writtenAround('ws_a', [third], { reach: 3, filter: { statuses: ['active'] } });
    // Three places each side of turn 3 are turns 1-2 and 4, the deleted turn 5 and the other workspace's memory.
    expect(around.map((m) => m.metadata.turn)).toEqual([1, 2, 3, 4]);
    // Each with its ranking columns, its user and its metadata.
    expect(around[2]).toEqual({
      id: turns[2]!.id,
      seq: third,
      content: 'turn 3',
      context_id: '_default',
      user_id: null,
      session_id: 's1',
      subject_id: null,
      source_scope: null,
      source_memory_id: null,
      metadata: { turn: 3 },
      occurred_at: '2024-05-02T09:00:00.000Z',
      created_at: turns[2]!.created_at,
      mentions: null,
    });
    expect(around.every((m, i) => i === 0 || m.seq > around[i - 1]!.seq)).toBe(true);
    // Overlapping and separate ranges, with a filter.
    const farther = await s.memories.writtenAround('ws_a', [last, third, third + 1], {
      reach: 4,
      filter: { statuses: ['active'], excludeIds: [turns[0]!.id] },
    });
    expect(farther.map((m) => m.metadata.turn)).toEqual([2, 3, 4, 6, 7, 8, 9]);
    expect(await s.memories.writtenAround('ws_b', [third], { reach: 2 })).toEqual([]);
    expect(await s.memories.writtenAround('ws_a', [], { reach: 2 })).toEqual([]);
    // Metadata by write position, of the workspace's memories only.
    const foreignSeq = (await s.memories.candidates('ws_b', [foreign.id]))[0]!.memory.seq;
    const metadata = await s.memories.metadataAt('ws_a', [third, last, foreignSeq, last + 1000]);
    expect([...metadata].sort(([a], [b]) => a - b)).toEqual([
      [third, { turn: 3 }],
      [last, { turn: 9 }],
    ]);
    expect(await s.memories.metadataAt('ws_a', [])).toEqual(new Map());
    await s.close();
  });

  it('counts backlinks, leaving out the relationships asked', async () => {
    const s = await fresh();
    const [a, b, c] = ['a', 'b', 'c'].map((x, i) => memory('ws_a', x, axisVector(DIMS, i)));
    await s.memories.insert([a!, b!, c!]);
    await s.associations.upsert(association('ws_a', b!.id, a!.id, 'references', 0.9));
    await s.associations.upsert(association('ws_a', c!.id, a!.id, 'similar_to', 0.7));
    await s.associations.upsert(association('ws_a', c!.id, b!.id, 'part_of', 1));
    expect(await s.associations.incomingCounts('ws_a', [a!.id, b!.id])).toEqual(
      new Map([
        [a!.id, 2],
        [b!.id, 1],
      ]),
    );
    expect(
      await s.associations.incomingCounts('ws_a', [a!.id, b!.id], { excludeRelationships: ['similar_to', 'part_of'] }),
    ).toEqual(new Map([[a!.id, 1]]));
    await s.close();
  });
});
