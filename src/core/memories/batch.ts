import { AppError, type ErrorDetail } from '../../errors.js';
import type { Memory } from '../../storage/types.js';
import type { MemoryDraft } from './records.js';
import type { MemoryService, MemoryUpdate, MemoryWriteScope, WriteAction } from './service.js';

export type BatchOperation =
  | { op: 'create'; draft: MemoryDraft }
  | { op: 'update'; memoryId: string; change: MemoryUpdate }
  | { op: 'delete'; memoryId: string; hard: boolean }
  /** An item that could not be read; it fails alone. */
  | { op: 'create' | 'update' | 'delete'; invalid: AppError };

export interface BatchItemResult {
  index: number;
  type: 'create' | 'update' | 'delete';
  status: 'success' | 'error';
  success: boolean;
  memory_id?: string;
  action?: WriteAction;
  memory?: Memory;
  error?: string;
  details?: ErrorDetail[];
}

export interface BatchOutcome {
  total_operations: number;
  total_processed: number;
  successful: number;
  failed: number;
  results: BatchItemResult[];
}

const failure = (index: number, type: BatchItemResult['type'], error: unknown): BatchItemResult => {
  const appError = error instanceof AppError ? error : null;
  if (!appError) throw error;
  return {
    index,
    type,
    status: 'error',
    success: false,
    error: appError.message,
    ...(appError.details.length ? { details: appError.details } : {}),
  };
};

/**
 * Runs operations in order. Consecutive creates share one embedding call and one transaction (the fast path for
 * bulk ingestion); updates and deletes run one by one. A failing item is reported and the rest go on.
 */
export async function runBatch(
  memories: MemoryService,
  scope: MemoryWriteScope,
  operations: readonly BatchOperation[],
): Promise<BatchOutcome> {
  const results: BatchItemResult[] = [];
  let index = 0;
  while (index < operations.length) {
    const operation = operations[index]!;
    if ('invalid' in operation) {
      results.push(failure(index, operation.op, operation.invalid));
      index++;
    } else if (operation.op === 'create') {
      const run: Array<{ index: number; draft: MemoryDraft }> = [];
      for (let next = operations[index]; next && next.op === 'create' && 'draft' in next; next = operations[++index])
        run.push({ index, draft: next.draft });
      const outcomes = await memories.createMany(
        scope,
        run.map((r) => r.draft),
      );
      outcomes.forEach((outcome, i) => {
        const at = run[i]!.index;
        results.push(
          'error' in outcome
            ? failure(at, 'create', outcome.error)
            : {
                index: at,
                type: 'create',
                status: 'success',
                success: true,
                memory_id: outcome.memory.id,
                action: outcome.action,
                memory: outcome.memory,
              },
        );
      });
    } else {
      try {
        if (operation.op === 'update') {
          const memory = await memories.update(scope.workspaceId, operation.memoryId, operation.change);
          results.push({ index, type: 'update', status: 'success', success: true, memory_id: memory.id, memory });
        } else {
          await memories.delete(scope.workspaceId, operation.memoryId, operation.hard);
          results.push({ index, type: 'delete', status: 'success', success: true, memory_id: operation.memoryId });
        }
      } catch (error) {
        results.push({ ...failure(index, operation.op, error), memory_id: operation.memoryId });
      }
      index++;
    }
  }
  const successful = results.filter((r) => r.success).length;
  return {
    total_operations: operations.length,
    total_processed: results.length,
    successful,
    failed: results.length - successful,
    results,
  };
}
