import type { ProviderLoad } from './load.js';

/** A model the peer serves (an embedder, an OCR engine), with its load and whether it loaded. */
export class Hosted<P extends { init(): Promise<void> }> {
  state: 'loading' | 'ready' | 'failed' = 'loading';
  error: string | null = null;

  constructor(
    readonly provider: P,
    readonly load: ProviderLoad,
  ) {}

  /** Loads the model; a failure is reported by /health/ready rather than stopping the peer. */
  async init(): Promise<void> {
    try {
      await this.provider.init();
      this.state = 'ready';
    } catch (error) {
      this.state = 'failed';
      this.error = error instanceof Error ? error.message : String(error);
    }
  }
}
