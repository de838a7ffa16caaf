import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCORED_MATCHES } from '../../src/core/recall/arms.js';
import { BATCH_MAX_OPERATIONS } from '../../src/http/schemas/batch.js';
import type { MemdClient } from '../../packages/client/src/index.js';
import { HoldableEmbedder } from '../support/holdable-embedder.js';
import { client, ManualClock, memdClient, startServer, type Client, type TestServer } from '../support/server.js';

let server: TestServer;
let memd: MemdClient;
/** For bodies the client's types refuse. */
let api: Client;
const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
/** The `hash` embedder, whose next call a test can hold to make the server's work take a known time. */
const embedder = new HoldableEmbedder();

beforeAll(async () => {
  server = await startServer({ clock, embedder });
  memd = memdClient(server.url);
  api = client(server.url);
});
afterAll(() => server.stop());

let workspaces = 0;
/** A fresh workspace per test: results never depend on another test's memories. */
const workspace = async (settings: Record<string, unknown> = {}): Promise<string> =>
  (await memd.workspaces.create({ id: `recall-${++workspaces}`, name: 'recall', settings })).workspace.id;

type NewMemory = Parameters<MemdClient['memories']['create']>[0];
type RecallRequest = Parameters<MemdClient['memories']['recall']>[0];

/** One memory per call, a millisecond after the last: separate calls, not one batch (a batch is a conversation). */
const remember = async (workspace_id: string, content: string, extra: Partial<NewMemory> = {}) => {
  clock.advance(1);
  return (await memd.memories.create({ workspace_id, content, ...extra })).memory;
};

const recall = (workspace_id: string, query: string, extra: Partial<RecallRequest> = {}) =>
  memd.memories.recall({ workspace_id, query, ...extra });

const ids = (result: { memories: Array<{ id: string }> }) => result.memories.map((m) => m.id);

const link = (
  workspace_id: string,
  source_id: string,
  target_id: string,
  strength: number,
  relationship = 'references',
) => memd.associations.create(source_id, { workspace_id, target_id, relationship, strength });

describe('POST /v1/memories/recall', () => {
  it('finds a memory right after its create returned (read-your-writes), with every annotation and no embedding', async () => {
    const ws = await workspace();
    await remember(ws, 'The office plants need water every Thursday.');
    const target = await remember(ws, 'The staging database listens on port 5433.');
    // The query's embedding (the next call to the embedder) is held for a while: the server's times must count it.
    const hold = embedder.holdCall(1);
    const asked = performance.now();
    const answer = recall(ws, 'Which port does the staging database use?');
    await hold.reached;
    const heldFrom = performance.now();
    await sleep(50);
    const held = performance.now() - heldFrom;
    hold.release();
    const result = await answer;
    const roundTrip = performance.now() - asked;
    expect(result.memories[0]!.id).toBe(target.id);
    const top = result.memories[0]!;
    expect(top).toMatchObject({ relevance: top.relevance_score, staleness: 'none', freshness: 1 });
    expect(top.relevance_score).toBeGreaterThan(0.3);
    expect(top.boosted_score).toBeGreaterThan(0);
    expect(top.trust_score).toBeGreaterThan(0);
    expect(top.match_signals).toEqual([...top.match_signals].sort());
    expect(top.match_signals).toEqual(expect.arrayContaining(['keyword', 'vector']));
    expect(top).not.toHaveProperty('embedding');
    expect(result).toMatchObject({ total_count: result.memories.length, mode_used: 'rag', cached: false });
    expect(result.query_tokens).toBeGreaterThan(0);
    // The server's own times: embedding the query took at least as long as it was held, the whole recall at least
    // that, and no more than the client waited for the answer.
    expect(result.query_embedding_ms).toBeGreaterThanOrEqual(Math.floor(held));
    expect(result.search_latency_ms).toBeGreaterThanOrEqual(result.query_embedding_ms);
    expect(result.search_latency_ms).toBeLessThanOrEqual(roundTrip);
  });

  it('counts a recall in access_count for a GET made right after it', async () => {
    const ws = await workspace();
    const target = await remember(ws, 'The backup window opens at 02:00 UTC.');
    expect((await memd.memories.get(target.id, { workspace_id: ws })).memory.access_count).toBe(0);
    expect(ids(await recall(ws, 'When does the backup window open?'))).toContain(target.id);
    const read = (await memd.memories.get(target.id, { workspace_id: ws })).memory;
    expect(read.access_count).toBe(1);
    expect(read.last_accessed_at).not.toBeNull();
  });

  it('ranks the memory holding a rare exact keyword first', async () => {
    const ws = await workspace();
    for (let i = 0; i < 12; i++)
      await remember(ws, `Deployment note ${i}: the release train leaves on Tuesday and the service owners sign off.`);
    const target = await remember(ws, 'The release of service QX-7731 was rolled back after the smoke tests failed.');
    const result = await recall(ws, 'QX-7731');
    expect(result.memories[0]!.id).toBe(target.id);
    expect(result.memories[0]!.match_signals).toContain('keyword');
  });

  it('answers a named entity through the entity arm', async () => {
    const ws = await workspace();
    await remember(ws, 'Caroline went to a support group meeting and found it powerful.');
    const about = await remember(ws, 'Melanie signed up for a pottery class last weekend.');
    await remember(ws, 'The pottery studio downtown closes early on Sundays.');
    const result = await recall(ws, 'What did Melanie sign up for?');
    expect(result.intents).toContain('entity');
    expect(result.memories[0]!.id).toBe(about.id);
    expect(result.memories[0]!.match_signals).toContain('entity');
  });

  it('answers a dated question through the temporal arm (event time from metadata)', async () => {
    const ws = await workspace();
    const june = await remember(ws, 'We launched the beta to the first ten customers.', {
      metadata: { date: '2024-06-12' },
    });
    await remember(ws, 'We launched the marketing site redesign.', { metadata: { date: '2024-09-03' } });
    const result = await recall(ws, 'What did we launch in June 2024?');
    expect(result.intents).toContain('temporal');
    expect(result.memories[0]!.id).toBe(june.id);
    expect(result.memories[0]!.match_signals).toContain('temporal');
  });

  // The clock: Sunday 1 March 2026, noon. A personal assistant's notes name days in their text, not in metadata.
  it('finds a note by the day its text names: next week, the 14th, tomorrow; and by its new day once changed', async () => {
    const ws = await workspace();
    const dentist = await remember(ws, 'Dentist appointment moved to Wednesday at 10.');
    const flight = await remember(ws, 'Flight to Lisbon on 14 March at 7:40.');
    const haircut = await remember(ws, 'Booked a haircut for tomorrow at 9.');
    await remember(ws, 'I like Thai food.');
    await remember(ws, 'The car goes in for its service on 20 April.');
    await remember(ws, 'Yesterday I finished the quarterly report.');

    const nextWeek = await recall(ws, 'What is planned for next week?', { limit: 3 });
    expect(ids(nextWeek).slice(0, 2).sort()).toEqual([dentist.id, haircut.id].sort());
    for (const m of nextWeek.memories.slice(0, 2)) expect(m.match_signals).toContain('temporal');

    // The nearer 14th: 14 March, thirteen days on, rather than 14 February, fifteen days ago.
    const fourteenth = await recall(ws, 'Anything on the 14th?');
    expect(fourteenth.memories[0]!.id).toBe(flight.id);
    expect(fourteenth.memories[0]!.relevance_score).toBe(1);
    expect((await recall(ws, "What's happening tomorrow?")).memories[0]!.id).toBe(haircut.id);

    await memd.memories.update(flight.id, { workspace_id: ws, content: 'Flight to Lisbon moved to 21 March at 7:40.' });
    // "The 21st" alone would be the nearer, 21 February; a plan is ahead.
    expect((await recall(ws, 'What is planned for the 21st?')).memories[0]!.id).toBe(flight.id);
    expect(ids(await recall(ws, 'Anything on the 14th?', { limit: 1 }))).not.toContain(flight.id);
  });

  it('applies every filter', async () => {
    const ws = await workspace();
    const q = 'quarterly revenue report';
    const base = await remember(ws, 'The quarterly revenue report is due on Friday.', {
      type: 'semantic',
      subtype: 'directive',
      tags: ['finance', 'q3'],
      context_id: 'ctx-a',
      observer_id: 'agent-1',
      subject_id: 'alice',
      user_id: 'u1',
    });
    const other = await remember(ws, 'Quarterly revenue report: the draft sits in the shared drive.', {
      type: 'episodic',
      subtype: 'event',
      tags: ['finance'],
      context_id: 'ctx-b',
      observer_id: 'agent-2',
      subject_id: 'bob',
      user_id: 'u2',
    });
    clock.advance(60_000);
    const later = await remember(ws, 'Revenue report for the quarter was approved by the board.', { tags: ['board'] });
    const all = await recall(ws, q, { min_relevance: 0 });
    expect(ids(all)).toEqual(expect.arrayContaining([base.id, other.id, later.id]));
    const only = async (extra: Partial<RecallRequest>) =>
      ids(await recall(ws, q, { min_relevance: 0, include_associations: false, ...extra }));
    expect(await only({ types: ['semantic'] })).not.toContain(other.id);
    expect(await only({ types: ['episodic'] })).toEqual([other.id]);
    expect(await only({ subtypes: ['directive'] })).toEqual([base.id]);
    expect(await only({ tags: ['finance', 'q3'] })).toEqual([base.id]);
    expect((await only({ tags: ['finance'] })).sort()).toEqual([base.id, other.id].sort());
    expect(await only({ context_id: 'ctx-b' })).toEqual([other.id]);
    expect(await only({ observer_id: 'agent-1' })).toEqual([base.id]);
    expect(await only({ subject_id: 'bob' })).toEqual([other.id]);
    expect(await only({ user_id: 'u1' })).toEqual([base.id]);
    expect(await only({ created_after: new Date(clock.now().getTime() - 1_000).toISOString() })).toEqual([later.id]);
    expect((await only({ created_before: new Date(clock.now().getTime() - 1_000).toISOString() })).sort()).toEqual(
      [base.id, other.id].sort(),
    );
    expect((await only({ exclude_ids: [base.id] })).sort()).toEqual([other.id, later.id].sort());
  });

  it('keeps archived memories out unless include_archived, and soft-deleted ones always, in every arm and in expansion', async () => {
    const ws = await workspace();
    const other = await workspace();
    // One conversation (a session), two sentences each (so atomic facts exist), dated, linked: every arm has a say.
    const sitting = memd.withSession((await memd.sessions.start({ workspace_id: ws })).session.id);
    const inSession = async (content: string, date: string) =>
      (await sitting.memories.create({ workspace_id: ws, content, metadata: { date } })).memory;
    const kept = await inSession(
      'Zeppelin project kickoff with Dana about the ZX-88 budget. Dana wants the numbers by Friday.',
      '2024-05-02',
    );
    const deleted = await inSession(
      'Zeppelin project review with Dana about the ZX-88 budget overrun. Dana was not pleased at all.',
      '2024-05-02',
    );
    const archived = await inSession(
      'Zeppelin project retro with Dana about the ZX-88 budget. Dana asked for a new forecast.',
      '2024-05-02',
    );
    const foreign = await remember(
      other,
      'Zeppelin project kickoff with Dana about the ZX-88 budget. Dana wants the numbers by Friday.',
      { metadata: { date: '2024-05-02' } },
    );
    await server.drainTasks();
    await link(ws, kept.id, deleted.id, 1);
    await link(ws, kept.id, archived.id, 1);
    await memd.memories.update(archived.id, { workspace_id: ws, status: 'archived' });
    await memd.memories.delete(deleted.id, { workspace_id: ws });
    // Vector, keyword, entity ("Dana", "ZX-88", "Zeppelin"), temporal (May 2024), fact, graph arms and conversation neighbours.
    const query = 'What did Dana say about the "ZX-88" budget of the Zeppelin project in May 2024?';
    const result = await recall(ws, query, { min_relevance: 0, limit: 50 });
    expect(result.intents).toEqual(expect.arrayContaining(['entity', 'temporal']));
    expect(result.memories.find((m) => m.id === kept.id)?.match_signals).toEqual(
      expect.arrayContaining(['entity', 'fact', 'keyword', 'temporal', 'vector']),
    );
    expect(ids(result)).not.toContain(archived.id);
    expect(ids(result)).not.toContain(deleted.id);
    expect(ids(result)).not.toContain(foreign.id);
    const withArchived = await recall(ws, query, { min_relevance: 0, limit: 50, include_archived: true });
    expect(ids(withArchived)).toContain(archived.id);
    expect(ids(withArchived)).not.toContain(deleted.id);
    expect(ids(withArchived)).not.toContain(foreign.id);
    // Facts never come back as results of their own: they answer as their parent.
    const facts = (await memd.memories.list({ workspace_id: ws, limit: 100 })).memories.filter(
      (m) => m.source_scope === 'fact',
    );
    expect(facts.length).toBeGreaterThan(0);
    expect(ids(withArchived).some((id) => facts.some((f) => f.id === id))).toBe(false);
  });

  it('scores expansions exactly parent x strength x 0.8^depth, in both directions, skipping what it has seen', async () => {
    const ws = await workspace();
    const seed = await remember(ws, 'Heliotrope valve calibration procedure for the pump room.');
    const hop1 = await remember(ws, 'Order spare gaskets from the supplier in Leeds.');
    const hop2 = await remember(ws, 'Weekly inventory count happens on Mondays.');
    // hop1 -> seed (incoming to the seed), hop1 -> hop2 (outgoing from hop1): expansion walks both directions.
    await link(ws, hop1.id, seed.id, 0.9);
    await link(ws, hop1.id, hop2.id, 0.8);
    await link(ws, hop2.id, hop1.id, 0.3, 'similar_to'); // a weaker second edge: hop2 is scored once, by the strongest
    const result = await recall(ws, 'Heliotrope valve calibration procedure', { tolerance: 'moderate' });
    const [top, second, third] = result.memories;
    expect(top!.id).toBe(seed.id);
    expect(second!.id).toBe(hop1.id);
    expect(third!.id).toBe(hop2.id);
    expect(second!.relevance_score).toBeCloseTo(top!.relevance_score * 0.9 * 0.8, 5);
    expect(second!.boosted_score).toBeCloseTo(top!.boosted_score * 0.9 * 0.8, 5);
    expect(third!.relevance_score).toBeCloseTo(second!.relevance_score * 0.8 * 0.8 ** 2, 5);
    expect(third!.boosted_score).toBeCloseTo(second!.boosted_score * 0.8 * 0.8 ** 2, 5);
    expect(second).toMatchObject({ source_scope: 'association', match_signals: ['graph'] });
    // With expansion off (or depth 0) only the direct match is relevant enough to come back.
    expect(ids(await recall(ws, 'Heliotrope valve calibration procedure', { include_associations: false }))).toEqual([
      seed.id,
    ]);
    expect(ids(await recall(ws, 'Heliotrope valve calibration procedure', { traverse_depth: 0 }))).toEqual([seed.id]);
    expect(ids(await recall(ws, 'Heliotrope valve calibration procedure', { traverse_depth: 1 }))).toEqual([
      seed.id,
      hop1.id,
    ]);
    expect(ids(await recall(ws, 'Heliotrope valve calibration procedure', { max_expansion: 1 }))).toEqual([
      seed.id,
      hop1.id,
    ]);
  });

  it('boosts a memory other memories point at (backlinks), among many candidates', async () => {
    const ws = await workspace();
    const cited = await remember(ws, 'The blue ledger is kept in room 4.');
    const uncited = await remember(ws, 'The blue ledger is kept in room 5.');
    // More candidates than the places later steps use: the boost has to reach the right one among them.
    for (let i = 0; i < 30; i++) await remember(ws, `The ledger archive shelf ${i} holds folder ${i}.`);
    for (let i = 0; i < 3; i++) {
      const note = await remember(ws, `Audit note ${i} about office supplies.`);
      await link(ws, note.id, cited.id, 0.9);
    }
    const result = await recall(ws, 'Where is the blue ledger kept?', { include_associations: false });
    const [first, second] = result.memories;
    expect([first!.id, second!.id]).toEqual([cited.id, uncited.id]);
    expect(first!.match_signals).toContain('backlink');
    expect(second!.match_signals).not.toContain('backlink');
    // Three references: x(1 + 0.05 log2(1 + 3)) = x1.1 over an otherwise equal match.
    expect(first!.boosted_score / second!.boosted_score).toBeCloseTo(1.1, 1);
  });

  it('a link that disowns its target (contradicts, supersedes, replaces, preferred over) is no backlink', async () => {
    for (const relationship of ['contradicts', 'supersedes', 'replaces', 'preferred_over']) {
      const ws = await workspace();
      const outdated = await remember(ws, 'The blue ledger is kept in room 4.');
      const current = await remember(ws, 'The blue ledger is kept in room 5.');
      await link(ws, current.id, outdated.id, 0.9, relationship);
      const result = await recall(ws, 'Where is the blue ledger kept?', { include_associations: false });
      const outdatedResult = result.memories.find((m) => m.id === outdated.id);
      expect(outdatedResult?.match_signals, relationship).not.toContain('backlink');
      expect(ids(result)[0], relationship).toBe(current.id);
    }
  });

  it('requires the words together, in any order, when every word and phrase is too common to score', async () => {
    const ws = await workspace({ deduplication: false });
    const common = MAX_SCORED_MATCHES + 10;
    const contents = [
      ...Array.from({ length: common }, (_, i) => `Alpha beta item ${i}.`),
      ...Array.from({ length: common }, (_, i) => `Gamma reading ${i}.`),
      'Alpha beta and gamma notes were filed.',
      'Gamma rays hit the beta, then the alpha sensor.',
    ];
    for (let i = 0; i < contents.length; i += BATCH_MAX_OPERATIONS) {
      const operations = contents
        .slice(i, i + BATCH_MAX_OPERATIONS)
        .map((content) => ({ op: 'create' as const, content }));
      expect((await memd.memories.batch({ workspace_id: ws, operations })).failed).toBe(0);
    }
    const result = await recall(ws, 'alpha beta gamma');
    const byKeyword = result.memories
      .filter((m) => m.match_signals.includes('keyword'))
      .map((m) => m.content)
      .sort();
    // "alpha", "beta", "gamma" and the phrase "alpha beta" each match too many memories; all three words together
    // match two, whether or not "alpha beta" is written as a phrase.
    expect(byKeyword).toEqual([
      'Alpha beta and gamma notes were filed.',
      'Gamma rays hit the beta, then the alpha sensor.',
    ]);
  });

  it('serves a repeated recall from the cache until a write in the workspace', async () => {
    const ws = await workspace();
    await remember(ws, 'The cafeteria serves lasagne on Wednesdays.');
    const first = await recall(ws, 'What does the cafeteria serve?');
    expect(first.cached).toBe(false);
    const again = await recall(ws, 'What does the cafeteria serve?');
    expect(again.cached).toBe(true);
    expect(ids(again)).toEqual(ids(first));
    const added = await remember(ws, 'The cafeteria serves curry on Fridays.');
    const after = await recall(ws, 'What does the cafeteria serve?');
    expect(after.cached).toBe(false);
    expect(ids(after)).toContain(added.id);
    // Time-to-live: 300 s.
    expect((await recall(ws, 'What does the cafeteria serve?')).cached).toBe(true);
    clock.advance(301_000);
    expect((await recall(ws, 'What does the cafeteria serve?')).cached).toBe(false);
  });

  it('returns the detail level asked for, with the token savings', async () => {
    const ws = await workspace();
    const long = `${'The migration plan moves every service to the new cluster in three waves. '.repeat(3)}Rollback is manual. ${'Each wave needs a sign-off from the owners and a dry run in staging first. '.repeat(6)}`;
    const memory = await remember(ws, long);
    const full = await recall(ws, 'migration plan waves');
    expect(full.memories[0]!.content).toBe(memory.content);
    expect(full.token_summary.savings_percent).toBe(0);
    const abstract = await recall(ws, 'migration plan waves', { detail_level: 'abstract' });
    expect(abstract.memories[0]!.content.length).toBeLessThanOrEqual(103);
    expect(abstract.token_summary.returned).toBeLessThan(abstract.token_summary.full_would_be);
    expect(abstract.token_summary.savings_percent).toBeGreaterThan(50);
    const overview = await recall(ws, 'migration plan waves', { detail_level: 'overview' });
    expect(overview.memories[0]!.content.length).toBeLessThanOrEqual(503);
    expect(overview.memories[0]!.content.length).toBeGreaterThan(abstract.memories[0]!.content.length);
  });

  it('filters by the tolerance floors and min_relevance', async () => {
    const ws = await workspace();
    const strong = await remember(ws, 'Saffron risotto recipe uses arborio rice and saffron threads.');
    const weak = await remember(ws, 'The garage door remote needs a new battery.');
    expect(ids(await recall(ws, 'saffron risotto recipe'))).toEqual([strong.id]);
    expect(ids(await recall(ws, 'saffron risotto recipe', { min_relevance: 0 }))).toEqual(
      expect.arrayContaining([strong.id, weak.id]),
    );
    const loose = await recall(ws, 'saffron rice', { tolerance: 'loose' });
    const strict = await recall(ws, 'saffron rice dinner party guests', { tolerance: 'strict' });
    expect(ids(loose)).toContain(strong.id);
    // The recipe matches only part of that query: the default floor keeps it, the strict one (0.6) does not. (No
    // word of it may have a synonym the recipe holds: "menu" is searched as "recipes", and counts as held.)
    expect(ids(strict)).toEqual([]);
    const partial = await recall(ws, 'saffron rice dinner party guests');
    expect(ids(partial)).toEqual([strong.id]);
    expect(partial.memories[0]!.relevance_score).toBeLessThan(0.6);
    const floored = await recall(ws, 'saffron risotto recipe', { min_relevance: 0.99 });
    expect(ids(floored)).toEqual([strong.id]);
    expect(floored.memories[0]!.relevance_score).toBeGreaterThanOrEqual(0.99);
  });

  it('counts a query word the memory holds in another inflection toward the floor ("live" in "lives")', async () => {
    const ws = await workspace();
    const home = await remember(ws, 'Maya lives in Lisbon and works in the WET time zone.');
    await remember(ws, 'The garage door remote needs a new battery.');
    // "customer" matches nothing; "live" is half the query, held as "lives": the default floor (0.3) keeps it.
    const answer = await recall(ws, 'where does the customer live?');
    expect(ids(answer)).toEqual([home.id]);
    expect(answer.memories[0]!.relevance_score).toBe(0.5);
  });

  it('accepts the deprecated modes and answers them with the rag engine', async () => {
    const ws = await workspace();
    await remember(ws, 'Backups run nightly at 02:00.');
    for (const mode of ['rag', 'llm', 'hybrid'] as const)
      expect((await recall(ws, 'When do backups run?', { mode })).mode_used).toBe('rag');
  });

  it('counts one access per recall, off the request path', async () => {
    const ws = await workspace();
    const memory = await remember(ws, 'The VPN certificate expires in October.');
    await recall(ws, 'When does the VPN certificate expire?');
    await recall(ws, 'VPN certificate expiry');
    await server.app.services.recall.flushAccess();
    const stored = (await memd.memories.get(memory.id, { workspace_id: ws })).memory;
    expect(stored.access_count).toBe(2);
    expect(stored.last_accessed_at).toBe(clock.now().toISOString());
    expect(stored.importance).toBeCloseTo(0.5 * 1.1 * 1.1, 6);
  });

  it('refreshes the TTL of the session named by X-Session-ID and prefers its context', async () => {
    const ws = await workspace();
    const session = (await memd.sessions.start({ workspace_id: ws, ttl_seconds: 600, context_id: 'ctx-mine' })).session;
    const mine = await remember(ws, 'Standup moved to 09:30 for the platform team.', { context_id: 'ctx-mine' });
    const theirs = await remember(ws, 'Standup moved to 09:30 for the platform team members.', {
      context_id: 'ctx-theirs',
    });
    clock.advance(300_000);
    const result = await memd
      .withSession(session.id)
      .memories.recall({ query: 'When is standup for the platform team?', min_relevance: 0 });
    expect(result.memories[0]!.id).toBe(mine.id);
    expect(ids(result)).toContain(theirs.id);
    const touched = (await memd.sessions.get(session.id)).session;
    expect(touched.expires_at).toBe(new Date(clock.now().getTime() + 600_000).toISOString());
  });

  it('rejects out-of-range values with 422 and changes nothing', async () => {
    // Values the client's types refuse (and some they allow) go untyped: the server is what is under test.
    const bad = [
      { limit: 0 },
      { limit: 101 },
      { traverse_depth: 6 },
      { traverse_depth: -1 },
      { max_expansion: 0 },
      { max_expansion: 501 },
      { min_relevance: 1.5 },
      { recency_weight: -0.1 },
      { rag_threshold: 2 },
      { tolerance: 'lenient' },
      { mode: 'magic' },
      { detail_level: 'summary' },
      { limit: '10' },
      { created_after: 'yesterday' },
      { unknown_field: true },
    ];
    for (const extra of bad) {
      const res = await api.post('/v1/memories/recall', { query: 'anything', ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body).toMatchObject({ statusCode: 422, code: 'validation_error' });
    }
    expect((await api.post('/v1/memories/recall', { query: '   ' })).status).toBe(422);
    expect((await api.post('/v1/memories/recall', {})).status).toBe(422);
    expect((await memd.memories.recall({ query: 'x', workspace_id: 'does-not-exist' })).memories).toEqual([]);
  });
});
