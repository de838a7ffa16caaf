import type { Static, TSchema } from 'typebox';
import { runBatch as runCoreBatch, type BatchOperation } from '../../core/memories/batch.js';
import type { MemoryWriteScope } from '../../core/memories/service.js';
import type { Session } from '../../storage/types.js';
import type { Services } from '../../services.js';
import { toAppError } from '../errors.js';
import { BatchCreateFlat, BatchCreateNested, BatchDelete, BatchUpdateFlat, BatchUpdateNested } from '../schemas/batch.js';
import { compileBodySchema } from '../validation.js';
import { withSessionDefaults } from './memories.js';

const check = <S extends TSchema>(schema: S) => compileBodySchema<Static<S>>(schema);
const isCreateFlat = check(BatchCreateFlat);
const isCreateNested = check(BatchCreateNested);
const isUpdateFlat = check(BatchUpdateFlat);
const isUpdateNested = check(BatchUpdateNested);
const isDelete = check(BatchDelete);

/** The Ajv errors of the shape an item most likely meant, as a validation AppError. */
function invalidItem(op: 'create' | 'update' | 'delete', validate: { errors?: unknown }) {
  return toAppError(Object.assign(new Error('invalid operation'), { validation: validate.errors ?? [], validationContext: 'operation' }));
}

/** One batch item, in the REST shape or the client library's nested one, as a core operation. */
function parseOperation(item: { op: 'create' | 'update' | 'delete' } & Record<string, unknown>, session: Session | null): BatchOperation {
  switch (item.op) {
    case 'create': {
      if ('memory' in item) {
        if (!isCreateNested(item)) return { op: 'create', invalid: invalidItem('create', isCreateNested) };
        return { op: 'create', draft: withSessionDefaults(item.memory, session) };
      }
      if (!isCreateFlat(item)) return { op: 'create', invalid: invalidItem('create', isCreateFlat) };
      const { op: _op, ...draft } = item;
      return { op: 'create', draft: withSessionDefaults(draft, session) };
    }
    case 'update': {
      if ('updates' in item) {
        if (!isUpdateNested(item)) return { op: 'update', invalid: invalidItem('update', isUpdateNested) };
        return { op: 'update', memoryId: item.memory_id, change: item.updates };
      }
      if (!isUpdateFlat(item)) return { op: 'update', invalid: invalidItem('update', isUpdateFlat) };
      const { op: _op, memory_id, ...change } = item;
      return { op: 'update', memoryId: memory_id, change };
    }
    case 'delete':
      if (!isDelete(item)) return { op: 'delete', invalid: invalidItem('delete', isDelete) };
      return { op: 'delete', memoryId: item.memory_id, hard: item.hard ?? false };
  }
}

export function runBatch(services: Services, scope: MemoryWriteScope, session: Session | null, items: ReadonlyArray<{ op: 'create' | 'update' | 'delete' }>) {
  const operations = items.map((item) => parseOperation(item as { op: 'create' | 'update' | 'delete' } & Record<string, unknown>, session));
  return runCoreBatch(services.memories, scope, operations);
}
