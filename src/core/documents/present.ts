import type { IngestionJob, StoredDocument } from '../../storage/types.js';
import { resolveOptions } from './options.js';

/** A job as clients see it: counters grouped as progress, the failure as `{code, message}`. */
export function presentJob(job: IngestionJob) {
  const { pages_total, chunks_total, chunks_done, memories_linked, chunks_deduplicated, error_code, error_message, ...rest } = job;
  const percent = job.status === 'completed' ? 100 : chunks_total ? Math.floor((100 * chunks_done) / chunks_total) : 0;
  return {
    ...rest,
    extraction_options: resolveOptions(job.extraction_options),
    progress: { pages_total, chunks_total, chunks_processed: chunks_done, memories: memories_linked, chunks_deduplicated, percent },
    error: error_code === null ? null : { code: error_code, message: error_message ?? '' },
  };
}

export function presentDocument(document: StoredDocument) {
  const { current_job_id, ...rest } = document;
  return { ...rest, extraction_options: resolveOptions(document.extraction_options), job_id: current_job_id };
}
