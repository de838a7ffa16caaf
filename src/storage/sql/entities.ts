import type { CachedEntityCard, EntityStore } from '../types.js';
import { json, parseJsonObject, toIso } from '../rows.js';
import type { SqlContext } from './context.js';

export class SqlEntityStore implements EntityStore {
  constructor(private readonly ctx: SqlContext) {}

  async getCard(workspaceId: string, entityId: string): Promise<CachedEntityCard | null> {
    const row = await this.ctx.db
      .selectFrom('entity_cards')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('entity_id', '=', entityId)
      .executeTakeFirst();
    return row ? { ...row, card: parseJsonObject(row.card), generated_at: toIso(row.generated_at) } : null;
  }

  async putCard(record: CachedEntityCard): Promise<void> {
    const values = { ...record, card: json(record.card) };
    await this.ctx.db
      .insertInto('entity_cards')
      .values(values)
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'entity_id'])
          .doUpdateSet({ card: values.card, fingerprint: values.fingerprint, generated_at: values.generated_at }),
      )
      .execute();
  }

  async subjectFingerprint(workspaceId: string, subjectId: string): Promise<string> {
    const row = await this.ctx.db
      .selectFrom('memories')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('updated_at').as('latest')])
      .where('workspace_id', '=', workspaceId)
      .where('subject_id', '=', subjectId)
      .where('status', '=', 'active')
      .executeTakeFirstOrThrow();
    const latest = row.latest === null ? 'none' : toIso(row.latest as string | Date);
    return `${Number(row.n)}@${latest}`;
  }
}
