import type { Static, TSchema } from 'typebox';
import type { BatchOperation } from '../../core/memories/batch.js';
import { invalid } from '../../errors.js';
import { toAppError } from '../errors.js';
import {
  BatchCreateFlat,
  BatchCreateNested,
  BatchDelete,
  BatchUpdateFlat,
  BatchUpdateNested,
  type BatchItem,
} from '../schemas/batch.js';
import { compileBodySchema } from '../validation.js';

const check = <S extends TSchema>(schema: S) => compileBodySchema<Static<S>>(schema);
const isCreateFlat = check(BatchCreateFlat);
const isCreateNested = check(BatchCreateNested);
const isUpdateFlat = check(BatchUpdateFlat);
const isUpdateNested = check(BatchUpdateNested);
const isDelete = check(BatchDelete);

type Op = 'create' | 'update' | 'delete';
const OPS: readonly Op[] = ['create', 'update', 'delete'];

/** The Ajv errors of the shape an item most likely meant, as a validation AppError. */
function invalidItem(validate: { errors?: unknown }) {
  return toAppError(
    Object.assign(new Error('invalid operation'), {
      validation: validate.errors ?? [],
      validationContext: 'operation',
    }),
  );
}

/** One batch item, in the REST shape or the client library's nested one (`action` naming the op), as a core operation. */
function parseOperation(raw: BatchItem): BatchOperation {
  const { action, ...rest } = raw as BatchItem & Record<string, unknown>;
  // The envelope lets an item through with one valid name of the two: an `action` does not excuse a bad `op`.
  if (raw.op !== undefined && !OPS.includes(raw.op as Op))
    return { op: action as Op, invalid: invalid('/operation/op', 'must be one of create, update, delete') };
  const op = (raw.op ?? action) as Op;
  const item = { ...rest, op };
  switch (op) {
    case 'create': {
      if ('memory' in item) {
        if (!isCreateNested(item)) return { op, invalid: invalidItem(isCreateNested) };
        return { op, draft: item.memory };
      }
      if (!isCreateFlat(item)) return { op, invalid: invalidItem(isCreateFlat) };
      const { op: _op, ...draft } = item;
      return { op, draft };
    }
    case 'update': {
      if ('updates' in item) {
        if (!isUpdateNested(item)) return { op, invalid: invalidItem(isUpdateNested) };
        return { op, memoryId: item.memory_id, change: item.updates };
      }
      if (!isUpdateFlat(item)) return { op, invalid: invalidItem(isUpdateFlat) };
      const { op: _op, memory_id, ...change } = item;
      return { op, memoryId: memory_id, change };
    }
    case 'delete':
      if (!isDelete(item)) return { op, invalid: invalidItem(isDelete) };
      return { op, memoryId: item.memory_id, hard: item.hard ?? false };
  }
}

export const parseBatch = (items: readonly BatchItem[]): BatchOperation[] => items.map(parseOperation);
