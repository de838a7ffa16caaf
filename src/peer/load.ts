/** What /health/load reports for one provider. */
export interface LoadSnapshot {
  kind: 'embedding' | 'llm' | 'ocr';
  name: string;
  model: string;
  /** Requests being served now. */
  in_flight: number;
  /** Requests waiting for a free slot. */
  queued: number;
  capacity: number;
  /** in_flight / capacity, 0..1. */
  utilization: number;
  completed: number;
  failed: number;
}

/**
 * Admission and accounting for one provider: at most `capacity` requests are served at once, the rest wait in
 * arrival order. A request holds its slot until it releases it (a streamed answer: until the stream ends).
 */
export class ProviderLoad {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private completed = 0;
  private failed = 0;

  constructor(
    readonly kind: LoadSnapshot['kind'],
    readonly name: string,
    readonly model: string,
    private readonly capacity: number,
  ) {}

  /** Resolves with the release function once a slot is free; release once, saying whether the request succeeded. */
  async acquire(): Promise<(ok: boolean) => void> {
    if (this.inFlight >= this.capacity) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    let released = false;
    return (ok) => {
      if (released) return;
      released = true;
      if (ok) this.completed++;
      else this.failed++;
      // The slot passes straight to the next in line, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    };
  }

  /** Runs `work` in a slot. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      const result = await work();
      release(true);
      return result;
    } catch (error) {
      release(false);
      throw error;
    }
  }

  snapshot(): LoadSnapshot {
    return {
      kind: this.kind,
      name: this.name,
      model: this.model,
      in_flight: this.inFlight,
      queued: this.waiting.length,
      capacity: this.capacity,
      utilization: Math.round((this.inFlight / this.capacity) * 1000) / 1000,
      completed: this.completed,
      failed: this.failed,
    };
  }
}
