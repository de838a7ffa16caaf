import { sql, type Selectable } from 'kysely';
import type { DocumentPagesTable, DocumentsTable, IngestionJobsTable } from '../database.js';
import { bit, json, parseJson, parseJsonObject, toBool, toIso, toIsoOrNull } from '../rows.js';
import type {
  DocumentMemoryLink,
  DocumentPage,
  DocumentRecord,
  DocumentStore,
  DocumentType,
  IngestionJob,
  IngestionJobPatch,
  IngestionStatus,
  NewDocumentPage,
  PageError,
  PageMatch,
  PassageKey,
  StoredDocument,
} from '../types.js';
import type { SqlContext } from './context.js';

/** Rows per multi-row insert: well inside both engines' bound-parameter limits. */
const INSERT_CHUNK = 200;

type DocumentRow = Selectable<DocumentsTable> & {
  status: string;
  page_count: number | string;
  memory_count: number | string;
  original_stored: number | string | boolean;
};

const toDocument = (row: DocumentRow): StoredDocument => ({
  id: row.id,
  workspace_id: row.workspace_id,
  tenant_id: row.tenant_id,
  filename: row.filename,
  mime_type: row.mime_type,
  document_type: row.document_type as DocumentType,
  size_bytes: Number(row.size_bytes),
  content_hash: row.content_hash,
  context_id: row.context_id,
  importance: row.importance,
  tags: parseJson<string[]>(row.tags),
  metadata: parseJsonObject(row.metadata),
  extraction_options: parseJsonObject(row.extraction_options),
  retain_original: toBool(row.retain_original),
  current_job_id: row.current_job_id,
  created_at: toIso(row.created_at),
  updated_at: toIso(row.updated_at),
  status: row.status as IngestionStatus,
  page_count: Number(row.page_count),
  memory_count: Number(row.memory_count),
  original_stored: Number(row.original_stored) > 0,
});

const toPage = (row: Selectable<DocumentPagesTable>): DocumentPage => ({
  id: row.id,
  workspace_id: row.workspace_id,
  document_id: row.document_id,
  page_no: Number(row.page_no),
  transcript: row.transcript,
  transcript_model: row.transcript_model,
  transcript_confidence: row.transcript_confidence === null ? null : Number(row.transcript_confidence),
  created_at: toIso(row.created_at),
});

const toJob = (row: Selectable<IngestionJobsTable>): IngestionJob => ({
  id: row.id,
  workspace_id: row.workspace_id,
  document_id: row.document_id,
  status: row.status as IngestionStatus,
  extraction_options: parseJsonObject(row.extraction_options),
  pages_total: row.pages_total === null ? null : Number(row.pages_total),
  chunks_total: row.chunks_total === null ? null : Number(row.chunks_total),
  chunks_done: Number(row.chunks_done),
  memories_linked: Number(row.memories_linked),
  chunks_deduplicated: Number(row.chunks_deduplicated),
  error_code: row.error_code,
  error_message: row.error_message,
  page_errors: parseJson<PageError[]>(row.page_errors) ?? [],
  created_at: toIso(row.created_at),
  started_at: toIsoOrNull(row.started_at),
  finished_at: toIsoOrNull(row.finished_at),
  updated_at: toIso(row.updated_at),
});

const PAGE_COLUMNS = [
  'id',
  'workspace_id',
  'document_id',
  'page_no',
  'transcript',
  'transcript_model',
  'transcript_confidence',
  'created_at',
] as const;

/** Documents, their stored bytes, pages (with a vector per passage) and ingestion jobs, and the memories made from them. */
export class SqlDocumentStore implements DocumentStore {
  constructor(private readonly ctx: SqlContext) {}

  private get db() {
    return this.ctx.db;
  }

  /** Documents with their current job's status and the counts that follow from their pages, links and bytes. */
  private documents(workspaceId: string) {
    return this.db
      .selectFrom('documents as d')
      .innerJoin('ingestion_jobs as j', 'j.id', 'd.current_job_id')
      .selectAll('d')
      .select((eb) => [
        'j.status',
        eb
          .selectFrom('document_pages as p')
          .select(eb.fn.countAll().as('n'))
          .whereRef('p.document_id', '=', 'd.id')
          .as('page_count'),
        eb
          .selectFrom('document_memories as m')
          .select(eb.fn.countAll().as('n'))
          .whereRef('m.document_id', '=', 'd.id')
          .as('memory_count'),
        eb
          .selectFrom('document_originals as o')
          .select(eb.fn.countAll().as('n'))
          .whereRef('o.document_id', '=', 'd.id')
          .as('original_stored'),
      ])
      .where('d.workspace_id', '=', workspaceId);
  }

  async insert(document: DocumentRecord): Promise<void> {
    await this.db
      .insertInto('documents')
      .values({
        ...document,
        tags: json(document.tags),
        metadata: json(document.metadata),
        extraction_options: json(document.extraction_options),
        retain_original: bit(document.retain_original),
      })
      .execute();
  }

  async get(workspaceId: string, id: string): Promise<StoredDocument | null> {
    const row = await this.documents(workspaceId).where('d.id', '=', id).executeTakeFirst();
    return row ? toDocument(row as DocumentRow) : null;
  }

  async list(
    workspaceId: string,
    options: {
      status?: IngestionStatus | undefined;
      documentType?: DocumentType | undefined;
      limit: number;
      offset: number;
    },
  ) {
    let query = this.documents(workspaceId);
    let count = this.db
      .selectFrom('documents as d')
      .innerJoin('ingestion_jobs as j', 'j.id', 'd.current_job_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('d.workspace_id', '=', workspaceId);
    if (options.status) {
      query = query.where('j.status', '=', options.status);
      count = count.where('j.status', '=', options.status);
    }
    if (options.documentType) {
      query = query.where('d.document_type', '=', options.documentType);
      count = count.where('d.document_type', '=', options.documentType);
    }
    const [rows, total] = await Promise.all([
      query
        .orderBy('d.created_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(options.limit)
        .offset(options.offset)
        .execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { documents: rows.map((r) => toDocument(r as DocumentRow)), total: Number(total.n) };
  }

  async update(
    workspaceId: string,
    id: string,
    patch: Partial<
      Pick<DocumentRecord, 'current_job_id' | 'extraction_options' | 'context_id' | 'importance' | 'updated_at'>
    >,
  ): Promise<void> {
    const { extraction_options, ...rest } = patch;
    await this.db
      .updateTable('documents')
      .set({ ...rest, ...(extraction_options && { extraction_options: json(extraction_options) }) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    // Bytes, pages, jobs and memory links go with the row (ON DELETE CASCADE).
    const result = await this.db
      .deleteFrom('documents')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteUnlinked(workspaceId: string, id: string): Promise<'deleted' | 'linked' | 'absent'> {
    let held = this.db
      .selectFrom('documents')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id);
    // FOR UPDATE conflicts with the key-share lock a link's insert takes on the document. SQLite's transactions
    // already run one at a time.
    if (this.ctx.engine.dialect === 'postgres') held = held.forUpdate();
    if (!(await held.executeTakeFirst())) return 'absent';
    const linked = await this.db
      .selectFrom('document_memories')
      .select('memory_id')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (linked) return 'linked';
    return (await this.delete(workspaceId, id)) ? 'deleted' : 'absent';
  }

  async putOriginal(workspaceId: string, documentId: string, bytes: Uint8Array): Promise<void> {
    await this.db
      .insertInto('document_originals')
      .values({ document_id: documentId, workspace_id: workspaceId, bytes: Buffer.from(bytes) })
      .execute();
  }

  async getOriginal(workspaceId: string, documentId: string): Promise<Uint8Array | null> {
    const row = await this.db
      .selectFrom('document_originals')
      .select('bytes')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId)
      .executeTakeFirst();
    return row ? new Uint8Array(row.bytes) : null;
  }

  async deleteOriginal(workspaceId: string, documentId: string): Promise<void> {
    await this.db
      .deleteFrom('document_originals')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId)
      .execute();
  }

  async replacePages(workspaceId: string, documentId: string, pages: readonly NewDocumentPage[]): Promise<void> {
    // Passages go with their pages (ON DELETE CASCADE).
    await this.db
      .deleteFrom('document_pages')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId)
      .execute();
    for (let start = 0; start < pages.length; start += INSERT_CHUNK) {
      await this.db
        .insertInto('document_pages')
        .values(pages.slice(start, start + INSERT_CHUNK).map(({ passages: _, ...page }) => page))
        .execute();
    }
    const passages = pages.flatMap((page) =>
      page.passages.map((passage, passageNo) => ({
        page_id: page.id,
        passage_no: passageNo,
        workspace_id: workspaceId,
        document_id: documentId,
        text: passage.text,
        embedding: this.ctx.engine.encodeVector(passage.embedding),
      })),
    );
    for (let start = 0; start < passages.length; start += INSERT_CHUNK) {
      await this.db
        .insertInto('document_passages')
        .values(passages.slice(start, start + INSERT_CHUNK))
        .execute();
    }
  }

  async listPages(workspaceId: string, documentId: string, page: { limit?: number; offset?: number }) {
    const scope = this.db
      .selectFrom('document_pages')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId);
    let query = scope.select(PAGE_COLUMNS).orderBy('page_no');
    if (page.limit !== undefined) query = query.limit(page.limit).offset(page.offset ?? 0);
    const [rows, total] = await Promise.all([
      query.execute(),
      scope.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { pages: rows.map(toPage), total: Number(total.n) };
  }

  async getPage(workspaceId: string, documentId: string, pageId: string): Promise<DocumentPage | null> {
    const row = await this.db
      .selectFrom('document_pages')
      .select(PAGE_COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId)
      .where('id', '=', pageId)
      .executeTakeFirst();
    return row ? toPage(row) : null;
  }

  async searchPages(
    workspaceId: string,
    vector: Float32Array,
    options: { k: number; documentIds?: readonly string[] | undefined },
  ): Promise<PageMatch[]> {
    if (options.documentIds?.length === 0) return [];
    // Every passage's distance once, then each page's nearest passage (row_number per page), then the k nearest pages.
    let scored = this.db
      .selectFrom('document_passages')
      .select([
        'page_id',
        'passage_no',
        'text',
        this.ctx.engine.cosineDistance(sql.ref('embedding'), vector).as('distance'),
      ])
      .where('workspace_id', '=', workspaceId);
    if (options.documentIds) scored = scored.where('document_id', 'in', [...options.documentIds]);
    const ranked = this.db
      .selectFrom(scored.as('scored'))
      .selectAll()
      .select(sql<number>`row_number() over (partition by page_id order by distance, passage_no)`.as('rank'));
    const rows = await this.db
      .selectFrom(ranked.as('best'))
      .innerJoin('document_pages as p', 'p.id', 'best.page_id')
      .select([
        ...PAGE_COLUMNS.map((column) => `p.${column}` as const),
        'best.passage_no',
        'best.text',
        'best.distance',
      ])
      .where('best.rank', '=', 1)
      .orderBy('best.distance')
      .orderBy('p.id')
      .limit(options.k)
      .execute();
    return rows.map(({ passage_no, text, distance, ...page }) => ({
      page: toPage(page),
      score: 1 - Number(distance),
      passage: { index: Number(passage_no), text },
    }));
  }

  async scanPassages(after: PassageKey | null, limit: number): Promise<Array<PassageKey & { text: string }>> {
    let query = this.db.selectFrom('document_passages').select(['page_id', 'passage_no', 'text']);
    if (after)
      query = query.where((eb) =>
        eb.or([
          eb('page_id', '>', after.page_id),
          eb.and([eb('page_id', '=', after.page_id), eb('passage_no', '>', after.passage_no)]),
        ]),
      );
    const rows = await query.orderBy('page_id').orderBy('passage_no').limit(limit).execute();
    return rows.map((row) => ({ ...row, passage_no: Number(row.passage_no) }));
  }

  async setPassageEmbeddings(entries: ReadonlyArray<PassageKey & { embedding: Float32Array }>): Promise<void> {
    for (const { page_id, passage_no, embedding } of entries) {
      await this.db
        .updateTable('document_passages')
        .set({ embedding: this.ctx.engine.encodeVector(embedding) })
        .where('page_id', '=', page_id)
        .where('passage_no', '=', passage_no)
        .execute();
    }
  }

  async linkMemories(links: readonly DocumentMemoryLink[]): Promise<void> {
    for (let start = 0; start < links.length; start += INSERT_CHUNK) {
      await this.db
        .insertInto('document_memories')
        .values(links.slice(start, start + INSERT_CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['document_id', 'memory_id'])
            .doUpdateSet((eb) => ({
              job_id: eb.ref('excluded.job_id'),
              page_no: eb.ref('excluded.page_no'),
              chunk_index: eb.ref('excluded.chunk_index'),
            }))
            // The same text twice in one run keeps its first place.
            .where('document_memories.job_id', '<>', (eb) => eb.ref('excluded.job_id')),
        )
        .execute();
    }
  }

  async linkedMemoryIds(
    workspaceId: string,
    documentId: string,
    options: { limit?: number; offset?: number; exceptJobId?: string },
  ) {
    let scope = this.db
      .selectFrom('document_memories')
      .where('workspace_id', '=', workspaceId)
      .where('document_id', '=', documentId);
    if (options.exceptJobId !== undefined) scope = scope.where('job_id', '<>', options.exceptJobId);
    let query = scope.select('memory_id').orderBy('page_no').orderBy('chunk_index').orderBy('memory_id');
    if (options.limit !== undefined) query = query.limit(options.limit).offset(options.offset ?? 0);
    const [rows, total] = await Promise.all([
      query.execute(),
      scope.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { ids: rows.map((r) => r.memory_id), total: Number(total.n) };
  }

  async createJob(job: IngestionJob): Promise<void> {
    await this.db
      .insertInto('ingestion_jobs')
      .values({ ...job, extraction_options: json(job.extraction_options), page_errors: json(job.page_errors) })
      .execute();
  }

  async getJob(workspaceId: string, id: string): Promise<IngestionJob | null> {
    const row = await this.db
      .selectFrom('ingestion_jobs')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async listJobs(
    workspaceId: string,
    options: { status?: IngestionStatus | undefined; documentId?: string | undefined; limit: number; offset: number },
  ) {
    let scope = this.db.selectFrom('ingestion_jobs').where('workspace_id', '=', workspaceId);
    if (options.status) scope = scope.where('status', '=', options.status);
    if (options.documentId) scope = scope.where('document_id', '=', options.documentId);
    const [rows, total] = await Promise.all([
      scope
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(options.limit)
        .offset(options.offset)
        .execute(),
      scope.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { jobs: rows.map(toJob), total: Number(total.n) };
  }

  async updateJob(
    workspaceId: string,
    id: string,
    patch: IngestionJobPatch,
    onlyFrom?: readonly IngestionStatus[],
  ): Promise<IngestionJob | null> {
    const { page_errors, ...rest } = patch;
    let query = this.db
      .updateTable('ingestion_jobs')
      .set({ ...rest, ...(page_errors && { page_errors: json(page_errors) }) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id);
    if (onlyFrom) query = query.where('status', 'in', [...onlyFrom]);
    const row = await query.returningAll().executeTakeFirst();
    return row ? toJob(row) : null;
  }
}
