import {
  extractPages,
  IngestionProblem,
  type ExtractLimits,
  type ExtractRequest,
  type Extraction,
  type ProblemCode,
} from './extract.js';

export type WorkerAnswer = { ok: true; extraction: Extraction } | { ok: false; code: ProblemCode; message: string };

export interface WorkerTask {
  request: ExtractRequest;
  limits: ExtractLimits;
}

/** Worker-thread side of the extractor. A problem comes back as a value: an error's class does not cross threads. */
export default async function extractInWorker({ request, limits }: WorkerTask): Promise<WorkerAnswer> {
  try {
    return { ok: true, extraction: await extractPages(request, limits) };
  } catch (error) {
    if (error instanceof IngestionProblem) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
