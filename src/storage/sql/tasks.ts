import type { Selectable } from 'kysely';
import type { TasksTable } from '../database.js';
import { json, parseJsonObject, toIso, toIsoOrNull } from '../rows.js';
import type { KindBacklog, NewTask, Task, TaskCounts, TaskStatus, TaskStore, TaskSummary } from '../types.js';
import type { SqlContext } from './context.js';

const toTask = (row: Selectable<TasksTable>): Task => ({
  id: Number(row.id),
  kind: row.kind,
  workspaceId: row.workspace_id,
  payload: parseJsonObject(row.payload),
  status: row.status as TaskStatus,
  attempts: row.attempts,
  runAt: toIso(row.run_at),
  leaseUntil: toIsoOrNull(row.lease_until),
  lastError: row.last_error,
  dedupeKey: row.dedupe_key,
  createdAt: toIso(row.created_at),
});

/** The durable queue lives in the same database as the data, so a task commits with the write that caused it. */
export class SqlTaskStore implements TaskStore {
  constructor(private readonly ctx: SqlContext) {}

  async enqueue(tasks: NewTask[]): Promise<void> {
    await this.insert(
      tasks.filter((t) => !t.rerunIfRunning),
      false,
    );
    await this.insert(
      tasks.filter((t) => t.rerunIfRunning),
      true,
    );
  }

  private async insert(tasks: NewTask[], rerunIfRunning: boolean): Promise<void> {
    for (let start = 0; start < tasks.length; start += 500) {
      const rows = tasks.slice(start, start + 500).map((t) => ({
        kind: t.kind,
        workspace_id: t.workspaceId,
        payload: json(t.payload),
        status: 'pending',
        attempts: 0,
        run_at: t.runAt,
        lease_until: null,
        last_error: null,
        dedupe_key: t.dedupeKey ?? null,
        created_at: t.runAt,
      }));
      await this.ctx.db
        .insertInto('tasks')
        .values(rows)
        .onConflict((oc) =>
          rerunIfRunning
            ? // Back to the queue, as new: the claim running it can no longer complete it (`complete`).
              oc
                .column('dedupe_key')
                .doUpdateSet((eb) => ({
                  status: 'pending',
                  run_at: eb.ref('excluded.run_at'),
                  lease_until: null,
                  payload: eb.ref('excluded.payload'),
                }))
                .where('tasks.status', '=', 'running')
            : oc.column('dedupe_key').doNothing(),
        )
        .execute();
    }
  }

  async claim(options: { now: string; leaseUntil: string; limit: number }): Promise<Task[]> {
    const { db, engine } = this.ctx;
    // The due tasks are read as two ordered scans, each by its own index range and stopped at the limit, then merged:
    // "pending and due, or running with an expired lease" as one OR made SQLite read both whole ranges and sort them
    // (103 ms a claim, on the main thread, with 950,000 tasks queued after a million-memory ingest).
    const due = (status: 'pending' | 'running', dueBy: 'run_at' | 'lease_until', strictly: boolean) => {
      let scan = db
        .selectFrom('tasks')
        .select(['id', 'run_at'])
        .where('status', '=', status)
        .where(dueBy, strictly ? '<' : '<=', options.now)
        .orderBy('run_at')
        .orderBy('id')
        .limit(options.limit);
      // Several API nodes may claim at once on Postgres; SQLite has a single writer.
      if (engine.dialect === 'postgres') scan = scan.forUpdate().skipLocked();
      return scan;
    };
    const rows = await db
      .updateTable('tasks')
      .set((eb) => ({ status: 'running', lease_until: options.leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(
            eb
              .selectFrom(due('pending', 'run_at', false).as('pending'))
              .selectAll()
              .unionAll(eb.selectFrom(due('running', 'lease_until', true).as('expired')).selectAll())
              .as('due'),
          )
          .select('due.id')
          .orderBy('due.run_at')
          .orderBy('due.id')
          .limit(options.limit),
      )
      .returningAll()
      .execute();
    return rows.map(toTask).sort((a, b) => a.id - b.id);
  }

  async extendLeases(ids: readonly number[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    await this.ctx.db
      .updateTable('tasks')
      .set({ lease_until: leaseUntil })
      .where('id', 'in', [...ids])
      .where('status', '=', 'running')
      .execute();
  }

  async releaseAllLeases(): Promise<number> {
    const result = await this.ctx.db
      .updateTable('tasks')
      .set({ status: 'pending', lease_until: null })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async release(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    // Handed back unstarted: the claim counted an attempt the task never had. Kept, it gave a task up for good on
    // fewer failures than maxAttempts (and lengthened its backoff) for every stop that came while it waited.
    await this.ctx.db
      .updateTable('tasks')
      .set((eb) => ({ status: 'pending', lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('id', 'in', [...ids])
      .where('status', '=', 'running')
      .execute();
  }

  async complete(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    // A task queued again while it ran (`rerunIfRunning`) is pending again: it stays for its next run.
    await this.ctx.db
      .deleteFrom('tasks')
      .where('id', 'in', [...ids])
      .where('status', '=', 'running')
      .execute();
  }

  async fail(id: number, error: string, retryAt: string | null): Promise<void> {
    const set =
      retryAt === null
        ? { status: 'failed', last_error: error, lease_until: null, dedupe_key: null }
        : { status: 'pending', last_error: error, lease_until: null, run_at: retryAt };
    await this.ctx.db.updateTable('tasks').set(set).where('id', '=', id).where('status', '=', 'running').execute();
  }

  async counts(now: string): Promise<TaskCounts> {
    return (await this.summary(now)).counts;
  }

  async summary(now: string): Promise<TaskSummary> {
    const { db, engine } = this.ctx;
    // Counted from the tasks_backlog index (status, kind, run_at) alone, and off the main thread where the engine
    // can (SQLite's reader thread): with a million tasks queued, health and metrics read this at every scrape.
    const byState = db
      .selectFrom('tasks')
      .select([
        'status',
        'kind',
        (eb) => eb.fn.countAll().as('n'),
        // Pending but not yet due: a retry's backoff, a sweep's next run.
        (eb) => eb.fn.sum(eb.case().when('run_at', '>', now).then(1).else(0).end()).as('later'),
        (eb) => eb.fn.min('run_at').as('oldest'),
      ])
      .groupBy(['status', 'kind']);
    const [rows] = await engine.read(db, [byState]);
    const counts: TaskCounts = { pending: 0, scheduled: 0, running: 0, failed: 0 };
    const backlog: KindBacklog[] = [];
    for (const r of rows!) {
      const n = Number(r.n);
      if (r.status !== 'pending') {
        counts[r.status as Exclude<keyof TaskCounts, 'scheduled'>] += n;
        continue;
      }
      const later = Number(r.later);
      counts.scheduled += later;
      counts.pending += n - later;
      // The oldest pending task of a kind is a due one whenever any is due.
      if (n > later) backlog.push({ kind: r.kind, pending: n - later, oldestDueAt: toIso(r.oldest) });
    }
    return { counts, backlog: backlog.sort((a, b) => a.kind.localeCompare(b.kind)) };
  }

  async list(options: { status?: TaskStatus; limit: number }): Promise<Task[]> {
    let q = this.ctx.db.selectFrom('tasks').selectAll();
    if (options.status) q = q.where('status', '=', options.status);
    const rows = await q.orderBy('id').limit(options.limit).execute();
    return rows.map(toTask);
  }
}
