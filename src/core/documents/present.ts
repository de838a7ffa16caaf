import type { IngestionJob, StoredDocument } from '../../storage/types.js';
import { resolveOptions } from './options.js';

/**
 * A job as clients see it: counters grouped as progress, the failure as `{code, message}`; beside them the flat
 * names client libraries read (`progress_percent`, `document_ids`, `total_memories_created`, `errors`, …).
 */
export function presentJob(job: IngestionJob) {
  const {
    pages_total,
    chunks_total,
    chunks_done,
    memories_linked,
    chunks_deduplicated,
    error_code,
    error_message,
    ...rest
  } = job;
  const percent = job.status === 'completed' ? 100 : chunks_total ? Math.floor((100 * chunks_done) / chunks_total) : 0;
  const error = error_code === null ? null : { code: error_code, message: error_message ?? '' };
  return {
    ...rest,
    extraction_options: resolveOptions(job.extraction_options),
    progress: {
      pages_total,
      chunks_total,
      chunks_processed: chunks_done,
      memories: memories_linked,
      chunks_deduplicated,
      percent,
    },
    error,
    progress_percent: percent,
    document_ids: [job.document_id],
    documents_processed: job.status === 'completed' ? 1 : 0,
    total_memories_created: memories_linked,
    errors: error ? [error] : [],
    completed_at: job.finished_at,
  };
}

/** A document as clients see it; `target_context_id` is `context_id` under the name client libraries read. */
export function presentDocument(document: StoredDocument) {
  const { current_job_id, ...rest } = document;
  return {
    ...rest,
    target_context_id: document.context_id,
    extraction_options: resolveOptions(document.extraction_options),
    job_id: current_job_id,
  };
}
