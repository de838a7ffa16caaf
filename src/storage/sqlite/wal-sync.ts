import { open, type FileHandle } from 'node:fs/promises';

/**
 * Makes committed transactions durable by fsyncing SQLite's write-ahead log, off the event loop and shared by every
 * caller waiting at the same moment (group commit). SQLite runs with synchronous=NORMAL: commits write the WAL
 * without syncing it, which survives a process crash; this barrier, awaited before a write is acknowledged, adds
 * survival of power loss without making every background commit block the thread.
 */
export class WalSync {
  private handle: Promise<FileHandle | null> | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(private readonly walPath: string | null) {}

  sync(): Promise<void> {
    if (!this.walPath) return Promise.resolve();
    if (!this.running) {
      this.running = this.flush().finally(() => (this.running = null));
      return this.running;
    }
    // A sync already running may have started before our commit: exactly one more follows it, for everyone waiting.
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.sync();
    });
    return this.queued;
  }

  private async flush(): Promise<void> {
    this.handle ??= open(this.walPath!, 'r+').catch(() => null);
    const file = await this.handle;
    if (file) await file.datasync();
    else this.handle = null; // no WAL yet: nothing has been written
  }

  async close(): Promise<void> {
    await this.running;
    await (await this.handle)?.close();
    this.handle = null;
  }
}
