import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Worker as TesseractWorker, Page, Line, Bbox } from 'tesseract.js';
import type { OcrConfig } from '../../config.js';
import { checkImage } from './image.js';
import { OcrProblem, type OcrBox, type OcrLine, type OcrProvider, type OcrResult } from './types.js';

const require = createRequire(import.meta.url);

/**
 * The English LSTM model shipped inside the npm package @tesseract.js-data/eng ("best" weights quantised to
 * integers, 2.9 MB): read from node_modules, never fetched. tesseract.js loads its WebAssembly core from
 * node_modules (tesseract.js-core) too, so OCR works offline.
 */
const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
export const TESSERACT_MODEL = 'tesseract.js-eng-best-int';
/**
 * A recognition thread holds its model and what its largest page took (WebAssembly memory never shrinks: about 60 MiB
 * with the model, 220 MiB after an A4 page at 300 dpi, 480 MiB after a 25 M pixel one; BENCHMARKS.md) until this
 * long without work.
 */
const IDLE_MS = 60_000;

type Confident = { confidence: number };
const unit = (confidence: number): number => Math.round(Math.max(0, Math.min(100, confidence))) / 100;
const box = ({ x0, y0, x1, y1 }: Bbox): OcrBox => ({ x0, y0, x1, y1 });
/** Of confidences already on 0..1. */
const mean = (items: readonly Confident[]): number =>
  items.length === 0
    ? 0
    : Math.round((100 * items.reduce((sum, item) => sum + item.confidence, 0)) / items.length) / 100;

function linesOf(page: Page): OcrLine[] {
  const lines: Line[] = (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) => paragraph.lines),
  );
  return lines.map((line) => ({
    text: line.text.trim(),
    confidence: unit(line.confidence),
    bbox: box(line.bbox),
    words: line.words.map((word) => ({ text: word.text, confidence: unit(word.confidence), bbox: box(word.bbox) })),
  }));
}

/** One recognition thread and whether it is still usable (a thread that timed out or died is not). */
interface Engine {
  worker: TesseractWorker;
  alive: boolean;
  /** Rejects when the thread dies (an engine abort): the page in hand fails at once instead of at its deadline. */
  death: Promise<never>;
}

/**
 * OCR with tesseract.js in this process: each engine is a worker thread (tesseract.js runs its WebAssembly build
 * of Tesseract there), so recognition never holds the event loop. At most `workers` engines run; more requests
 * wait their turn. Each page is bounded: its size is checked from the header before anything decodes it
 * (MEMD_OCR_MAX_PIXELS bounds the memory it takes), and recognition has MEMD_OCR_TIMEOUT_MS, after which the
 * thread is terminated (and a fresh one started for the next page). Threads stop after a minute idle.
 */
export class TesseractOcrProvider implements OcrProvider {
  readonly name = 'local';
  readonly model = TESSERACT_MODEL;
  readonly #idle: Engine[] = [];
  readonly #waiting: Array<() => void> = [];
  #busy = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly config: Pick<OcrConfig, 'timeoutMs' | 'maxPixels' | 'workers'>) {}

  /** Starts one engine, so that a failure to load shows at start (the peer's readiness) rather than on a page. */
  async init(): Promise<void> {
    const engine = await this.#acquire();
    this.#release(engine);
  }

  async recognize(image: Uint8Array): Promise<OcrResult> {
    const { width, height } = checkImage(image, this.config.maxPixels);
    const engine = await this.#acquire();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        engine.alive = false;
        reject(
          new OcrProblem(
            'ocr_timeout',
            `reading the image took longer than ${this.config.timeoutMs} ms (MEMD_OCR_TIMEOUT_MS)`,
          ),
        );
      }, this.config.timeoutMs);
    });
    try {
      const { data } = await Promise.race([
        engine.worker.recognize(image, {}, { text: true, blocks: true }),
        deadline,
        engine.death,
      ]);
      const lines = linesOf(data);
      return {
        text: data.text.trim(),
        confidence: mean(lines.flatMap((line) => line.words)),
        model: this.model,
        width,
        height,
        lines,
      };
    } catch (error) {
      if (error instanceof OcrProblem) throw error;
      const message = error instanceof Error ? error.message : String(error);
      // Leptonica could not decode the bytes although the header looked like an image: truncated or corrupt.
      if (/read image/i.test(message))
        throw new OcrProblem('invalid_image', 'the image could not be decoded (corrupt or truncated)');
      throw new OcrProblem('ocr_failed', `the OCR engine failed: ${message}`);
    } finally {
      clearTimeout(timer);
      this.#release(engine);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idleTimer);
    await Promise.all(this.#idle.splice(0).map((engine) => this.#stop(engine)));
  }

  /** An idle engine, a new one while fewer than `workers` run, or the next one released. */
  async #acquire(): Promise<Engine> {
    if (this.#closed) throw new OcrProblem('ocr_failed', 'the OCR engine is shutting down');
    while (this.#busy >= this.config.workers) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#busy++;
    const idle = this.#idle.pop();
    if (idle) return idle;
    try {
      return await this.#start();
    } catch (error) {
      this.#busy--;
      this.#waiting.shift()?.();
      throw new OcrProblem(
        'ocr_failed',
        `the OCR model could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  #release(engine: Engine): void {
    this.#busy--;
    if (engine.alive && !this.#closed) this.#idle.push(engine);
    else void this.#stop(engine);
    this.#waiting.shift()?.();
    clearTimeout(this.#idleTimer);
    this.#idleTimer = setTimeout(
      () => void Promise.all(this.#idle.splice(0).map((e) => this.#stop(e))),
      IDLE_MS,
    ).unref();
  }

  async #start(): Promise<Engine> {
    const { createWorker, OEM } = await import('tesseract.js');
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // No cache file in the working directory: the model is read from node_modules each time a thread starts.
      cacheMethod: 'none',
      // Failures reach the caller as rejected promises; without a handler tesseract.js would also throw them.
      errorHandler: () => {},
    });
    // A thread that dies (an engine abort) must not take the process with it: the listener keeps its error from
    // being thrown here, and the page in hand fails.
    const thread = (worker as unknown as { worker: NodeJS.EventEmitter }).worker;
    const engine: Engine = {
      worker,
      alive: true,
      death: new Promise<never>((_, reject) => {
        thread.on('error', (error: Error) =>
          reject(new OcrProblem('ocr_failed', `the OCR engine stopped: ${error.message}`)),
        );
        thread.once('exit', () => reject(new OcrProblem('ocr_failed', 'the OCR engine stopped')));
      }),
    };
    engine.death.catch(() => (engine.alive = false));
    return engine;
  }

  async #stop(engine: Engine): Promise<void> {
    engine.alive = false;
    await engine.worker.terminate().catch(() => undefined);
  }
}
