import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/core/access/principal.js';
import {
  ErasureService,
  noneRemoved,
  selectorHash,
  type ErasureScope,
  type PersonSelector,
} from '../../src/core/erasure/service.js';
import { CoreEvents } from '../../src/core/events.js';
import type { SqlStorage } from '../../src/storage/sql/storage.js';
import type { KnowledgebaseArticle, Memory } from '../../src/storage/types.js';
import { association, axisVector, id, mcpServer, memory, thread, workspace } from '../support/records.js';
import { storageBackends } from '../support/storage-backends.js';

const T0 = '2026-01-01T00:00:00.000Z';
const DIMENSIONS = 8;

/** The person erased (an e-mail address, as user ids often are) and a word only their records say. */
const USER = 'alice.erasure-7f3a@example.org';
const USER_WORD = 'zebracornx';
/** A subject erased in the second test, and a word only what is about them says. */
const SUBJECT = 'carol-erasure-51b2';
const SUBJECT_WORD = 'quagglecarol';

/**
 * Every column that holds a user or subject id. A new one fails the guard test below until erasure handles it
 * (src/storage/sql/erasure.ts). `observer_id` is left out on purpose: it names who observed, not whom it is about
 * (NOTES.md, "Erasure").
 */
const ID_COLUMNS = [
  'chat_threads.subject_id',
  'chat_threads.user_id',
  'entity_cards.entity_id',
  'mcp_servers.user_id',
  'memories.subject_id',
  'memories.user_id',
  'sessions.user_id',
  'skills.user_id',
];

const admin: Principal = { kind: 'admin' };

/** Every table and column of the database, as the engine lists them (the FTS and vector tables included). */
async function columns(storage: SqlStorage): Promise<Array<{ table: string; column: string; dataType: string }>> {
  const { db } = storage.sqlContext;
  const schema =
    storage.dialect === 'postgres'
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]!.schema
      : undefined;
  const tables = await db.introspection.getTables();
  return tables
    .filter((t) => schema === undefined || t.schema === schema)
    .flatMap((t) =>
      t.columns.map((c) => ({ table: schema ? `${schema}.${t.name}` : t.name, column: c.name, dataType: c.dataType })),
    );
}

/**
 * `table.column` of every column, in every table, whose value holds `needle`: as text, or as its UTF-8 bytes in binary
 * columns (SQLite's keyword index keeps its terms in blobs; `needle` is chosen so that stemming leaves it whole).
 */
async function columnsHolding(storage: SqlStorage, needle: string): Promise<string[]> {
  const { db } = storage.sqlContext;
  const bytes = Buffer.from(needle, 'utf8');
  const found: string[] = [];
  for (const { table, column, dataType } of await columns(storage)) {
    const value = sql.ref(column);
    const contains =
      storage.dialect === 'sqlite'
        ? sql`instr(CAST(${value} AS BLOB), ${bytes}) > 0`
        : dataType === 'bytea'
          ? sql`position(${bytes} in ${value}) > 0`
          : sql`position(${needle} in CAST(${value} AS TEXT)) > 0`;
    const { rows } = await sql<{
      n: number | string;
    }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${contains}`.execute(db);
    if (Number(rows[0]!.n) > 0) found.push(`${table.split('.').at(-1)}.${column}`);
  }
  return found.sort();
}

function article(
  workspaceId: string,
  articleId: string,
  kind: KnowledgebaseArticle['kind'],
  body: string,
  memoryIds: string[],
): KnowledgebaseArticle {
  return {
    workspace_id: workspaceId,
    id: articleId,
    kind,
    title: articleId,
    summary: body.slice(0, 40),
    body,
    memory_ids: memoryIds,
    links: [],
    community_id: null,
    signature: articleId,
    generator: 'extractive',
    metadata: {},
    position: 0,
    created_at: T0,
    updated_at: T0,
  };
}

/**
 * A workspace where the user has memories (with a fact and an insight derived from one), links, a contradiction, a
 * document link, a knowledgebase topic and the index, an entity card quoting them, a session with working memory and
 * a sandbox checkpoint, a thread with messages and an MCP server of the workspace; and where bob has the same kinds
 * of records, which must stay.
 */
async function seedWorkspace(storage: SqlStorage, workspaceId: string): Promise<{ alice: Memory[]; bob: Memory }> {
  await storage.workspaces.create(workspace(workspaceId));
  const alice = memory(workspaceId, `Alice says ${USER_WORD} tea is best`, axisVector(DIMENSIONS, 0), {
    user_id: USER,
    subject_id: 'dave',
    abstract: `${USER_WORD} tea`,
  });
  const fact = memory(workspaceId, `${USER_WORD} tea is best`, axisVector(DIMENSIONS, 0, 0.1), {
    user_id: USER,
    source_scope: 'fact',
    source_memory_id: alice.id,
  });
  const insight = memory(workspaceId, `Dave hears about ${USER_WORD} tea`, axisVector(DIMENSIONS, 1), {
    subject_id: 'dave',
    subtype: 'insight',
    source_memory_id: alice.id,
  });
  const bob = memory(workspaceId, 'Bob plays chess on Sundays', axisVector(DIMENSIONS, 2), {
    user_id: 'bob',
    subject_id: 'erin',
  });
  await storage.memories.insert([alice, fact, insight, bob]);
  await storage.associations.upsert(association(workspaceId, alice.id, bob.id));
  await storage.contradictions.insert({
    id: id('ctr'),
    workspace_id: workspaceId,
    memory_a_id: alice.id,
    memory_b_id: bob.id,
    contradiction_type: 'value',
    confidence: 0.9,
    detection_method: 'rules',
    explanation: null,
    detected_at: T0,
    resolved_at: null,
    resolution: null,
    merged_memory_id: null,
  });

  const jobId = id('job');
  const documentId = id('doc');
  await storage.documents.insert({
    id: documentId,
    workspace_id: workspaceId,
    tenant_id: 'default',
    filename: 'notes.txt',
    mime_type: 'text/plain',
    document_type: 'text',
    size_bytes: 10,
    content_hash: 'h',
    context_id: '_default',
    importance: 0.5,
    tags: [],
    metadata: {},
    extraction_options: {},
    retain_original: false,
    current_job_id: jobId,
    created_at: T0,
    updated_at: T0,
  });
  await storage.documents.linkMemories([
    {
      document_id: documentId,
      memory_id: alice.id,
      workspace_id: workspaceId,
      job_id: jobId,
      page_no: 1,
      chunk_index: 0,
    },
  ]);

  await storage.knowledgebase.putArticle(article(workspaceId, 'index', 'index', `Topics: ${USER_WORD} tea; chess`, []));
  await storage.knowledgebase.putArticle(
    article(workspaceId, 'topic-tea', 'topic', `All about ${USER_WORD} tea`, [alice.id]),
  );
  await storage.knowledgebase.putArticle(article(workspaceId, 'topic-chess', 'topic', 'All about chess', [bob.id]));
  await storage.entities.putCard({
    workspace_id: workspaceId,
    entity_id: 'dave',
    card: { reflection: `Dave hears of ${USER_WORD}` },
    fingerprint: 'f',
    generated_at: T0,
  });
  await storage.entities.putCard({
    workspace_id: workspaceId,
    entity_id: 'erin',
    card: { reflection: 'Erin watches chess' },
    fingerprint: 'f',
    generated_at: T0,
  });

  for (const userId of [USER, 'bob']) {
    const sessionId = id('sess');
    await storage.sessions.create({
      id: sessionId,
      workspace_id: workspaceId,
      tenant_id: 'default',
      context_id: '_default',
      user_id: userId,
      metadata: {},
      ttl_seconds: 3600,
      expires_at: '2027-01-01T00:00:00.000Z',
      created_at: T0,
      updated_at: T0,
    });
    const said = userId === USER ? USER_WORD : 'chess';
    await storage.sessions.putEntry(sessionId, {
      key: 'topic',
      value: { said },
      ttl_seconds: null,
      expires_at: null,
      created_at: T0,
      updated_at: T0,
    });
    await storage.sandboxCheckpoints.put(sessionId, Buffer.from(`x = "${said}"`, 'utf8'), {}, T0, 'r1', null);
    const threadId = id('thread');
    await storage.threads.create(thread(workspaceId, threadId, { user_id: userId }));
    await storage.threads.appendMessages(workspaceId, threadId, [
      { id: id('msg'), role: 'user', content: `I like ${said}`, metadata: {}, created_at: T0 },
      { id: id('msg'), role: 'assistant', content: 'Noted.', metadata: {}, created_at: T0 },
    ]);
    await storage.mcpServers.create(
      mcpServer(`tools-${userId === USER ? 'alice' : 'bob'}`, {
        scope: 'local',
        workspace_id: workspaceId,
        user_id: userId,
      }),
    );
  }
  return { alice: [alice, fact, insight], bob };
}

/** The user's entries above any workspace: a user-scoped skill (with a file that quotes them) and MCP server. */
async function seedTenantLevel(storage: SqlStorage): Promise<void> {
  const content = Buffer.from(`# Tea\nBrew ${USER_WORD} tea.`, 'utf8');
  await storage.skills.create(
    {
      id: id('skill'),
      tenant_id: 'default',
      scope: 'user',
      workspace_id: null,
      user_id: USER,
      name: 'tea',
      version: null,
      description: null,
      source_mode: 'server',
      metadata: {},
      created_at: T0,
      updated_at: T0,
    },
    [
      {
        path: 'SKILL.md',
        content,
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        created_at: T0,
        updated_at: T0,
      },
    ],
  );
  await storage.mcpServers.create(mcpServer('alice-everywhere', { scope: 'user', workspace_id: null, user_id: USER }));
}

for (const backend of storageBackends()) {
  describe(`erasure on ${backend.name}`, () => {
    let storage: SqlStorage;
    let erasure: ErasureService;
    const erase = (selector: PersonSelector, scope: ErasureScope) =>
      erasure.erase({ selector, scope, principal: admin });

    beforeAll(async () => {
      storage = await backend.open(DIMENSIONS);
      erasure = new ErasureService({
        storage,
        clock: { now: () => new Date(T0) },
        events: new CoreEvents(storage.workspaces),
        sandboxes: { cleanup: async () => undefined },
      });
    });
    afterAll(async () => {
      await storage.close();
      await backend.teardown();
    });

    it('knows every column that holds a user or subject id', async () => {
      const idColumns = (await columns(storage))
        .filter((c) => /(^|_)(user|subject|entity)_id$/.test(c.column))
        .map((c) => `${c.table.split('.').at(-1)}.${c.column}`);
      expect([...new Set(idColumns)].sort()).toEqual(ID_COLUMNS);
    });

    it('removes everything of a user, in one workspace and then in all, leaving no trace in any table', async () => {
      const one = await seedWorkspace(storage, 'erase-one');
      const other = await seedWorkspace(storage, 'erase-other');
      await seedTenantLevel(storage);
      // The search can fail: before, it finds the user and their words in every kind of record seeded.
      expect(await columnsHolding(storage, USER)).toEqual(
        expect.arrayContaining([
          'mcp_servers.scope_key',
          'mcp_servers.user_id',
          'memories.user_id',
          'sessions.user_id',
          'skills.scope_key',
          'skills.user_id',
          'chat_threads.user_id',
        ]),
      );
      console.log(backend.name, await columnsHolding(storage, USER_WORD), await columnsHolding(storage, USER));
      expect(await columnsHolding(storage, USER_WORD)).toEqual(
        expect.arrayContaining([
          'chat_messages.content',
          'entity_cards.card',
          'kb_articles.body',
          'memories.abstract',
          'memories.content',
          'working_memory.value',
        ]),
      );
      const aliceIds = one.alice.map((m) => m.id);
      expect((await storage.memories.keywordSearch('erase-one', [USER_WORD], { k: 10 })).map((h) => h.id)).toContain(
        aliceIds[0],
      );

      const first = await erase({ kind: 'user_id', id: USER }, { workspaceId: 'erase-one' });
      expect(first.workspaces).toEqual(['erase-one']);
      expect(first.removed).toEqual({
        ...noneRemoved(),
        memories: 3,
        associations: 1,
        contradictions: 1,
        document_links: 1,
        knowledgebase_articles: 2,
        entity_cards: 1,
        sessions: 1,
        working_memory_entries: 1,
        sandbox_checkpoints: 1,
        threads: 1,
        messages: 2,
        mcp_servers: 1,
      });
      // Gone from the workspace, its search indexes included; the other workspace and bob untouched.
      expect(await storage.memories.getMany('erase-one', aliceIds)).toEqual([]);
      expect(await storage.memories.keywordSearch('erase-one', [USER_WORD], { k: 10 })).toEqual([]);
      const nearest = (await storage.memories.vectorSearch('erase-one', axisVector(DIMENSIONS, 0), { k: 10 })).map(
        (h) => h.id,
      );
      expect(nearest).toEqual([one.bob.id]);
      expect(await storage.memories.get('erase-other', other.alice[0]!.id)).not.toBeNull();
      expect(await storage.memories.get('erase-one', one.bob.id)).not.toBeNull();
      expect(
        (await storage.knowledgebase.listArticles('erase-one', { limit: 10, offset: 0 })).map((a) => a.id),
      ).toEqual(['topic-chess']);
      expect(await storage.entities.getCard('erase-one', 'erin')).not.toBeNull();
      expect((await storage.sessions.list({ workspaceId: 'erase-one' })).map((s) => s.user_id)).toEqual(['bob']);

      const everywhere = await erase({ kind: 'user_id', id: USER }, { allWorkspaces: true });
      expect(everywhere.workspaces.sort()).toEqual(['erase-one', 'erase-other']);
      expect(everywhere.removed).toMatchObject({ memories: 3, sessions: 1, threads: 1, skills: 1, mcp_servers: 2 });

      // Not a trace left, in any column of any table: the audit records keep a hash only.
      expect(await columnsHolding(storage, USER)).toEqual([]);
      expect(await columnsHolding(storage, USER_WORD)).toEqual([]);
      expect(await columnsHolding(storage, 'bob')).toEqual(
        expect.arrayContaining(['memories.user_id', 'sessions.user_id', 'chat_threads.user_id']),
      );

      const audits = await erasure.audits(10);
      expect(audits.map((a) => a.id).sort()).toEqual([everywhere.id, first.id].sort());
      expect(audits.find((a) => a.id === first.id)).toMatchObject({
        requested_by: 'admin',
        selector_kind: 'user_id',
        selector_hash: selectorHash({ kind: 'user_id', id: USER }),
        workspaces: ['erase-one'],
        removed: first.removed,
      });
    });

    it('removes everything about a subject: their memories, threads and entity card', async () => {
      await storage.workspaces.create(workspace('erase-subject'));
      const about = memory('erase-subject', `Carol loves ${SUBJECT_WORD}`, axisVector(DIMENSIONS, 3), {
        user_id: 'bob',
        subject_id: SUBJECT,
      });
      const unrelated = memory('erase-subject', 'Bob fixes bikes', axisVector(DIMENSIONS, 4), { user_id: 'bob' });
      await storage.memories.insert([about, unrelated]);
      await storage.entities.putCard({
        workspace_id: 'erase-subject',
        entity_id: SUBJECT,
        card: { reflection: SUBJECT_WORD },
        fingerprint: 'f',
        generated_at: T0,
      });
      await storage.threads.create(
        thread('erase-subject', id('thread'), { user_id: 'bob', subject_id: SUBJECT, title: SUBJECT_WORD }),
      );
      expect(await columnsHolding(storage, SUBJECT)).toEqual([
        'chat_threads.subject_id',
        'entity_cards.entity_id',
        'memories.subject_id',
      ]);

      const erased = await erase({ kind: 'subject_id', id: SUBJECT }, { workspaceId: 'erase-subject' });
      expect(erased.removed).toEqual({ ...noneRemoved(), memories: 1, entity_cards: 1, threads: 1 });
      expect(await columnsHolding(storage, SUBJECT)).toEqual([]);
      expect(await columnsHolding(storage, SUBJECT_WORD)).toEqual([]);
      expect(await storage.memories.get('erase-subject', unrelated.id)).not.toBeNull();
    });

    it('refuses a workspace that does not exist, and removes nothing twice', async () => {
      await expect(erase({ kind: 'user_id', id: USER }, { workspaceId: 'no-such-workspace' })).rejects.toMatchObject({
        code: 'not_found',
      });
      const again = await erase({ kind: 'user_id', id: USER }, { allWorkspaces: true });
      expect(again.removed).toEqual(noneRemoved());
    });
  });
}

describe('the audit record', () => {
  it('names the selector by a SHA-256 of it, never in clear', () => {
    const hash = selectorHash({ kind: 'user_id', id: USER });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(createHash('sha256').update(`memd-erasure:user_id:${USER}`).digest('hex'));
    expect(selectorHash({ kind: 'subject_id', id: USER })).not.toBe(hash);
  });
});
