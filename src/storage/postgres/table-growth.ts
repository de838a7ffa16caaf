/**
 * Runs background work each time the memory tables have grown by what they held at its last run: a node counts the
 * rows it commits, and once they reach that size (at first `minimum`) it starts `work`, one run at a time. So the
 * work follows the tables' doubling, a few times in their life. Each node counts only its own writes: with several
 * nodes a run comes later, and the work acts on the tables as they are.
 */
export class TableGrowth {
  private rowsAtLastRun = 0;
  private rowsSince = 0;
  private running: Promise<unknown> | null = null;

  /**
   * `work` resolves with the rows the tables held when it ran, if it counted them; otherwise they are taken to have
   * grown by what this node counted. A failure counts as a run, so that failing work is not retried at every write.
   */
  constructor(
    private readonly minimum: number,
    private readonly work: () => Promise<number | null>,
  ) {}

  /** The tables held `rows` at the last run (read when storage opens, or counted by a run the caller made). */
  ranAt(rows: number): void {
    this.rowsAtLastRun = Math.max(0, rows);
  }

  /** Rows committed by this node. */
  noteRowsAdded(count: number): void {
    this.rowsSince += count;
    if (this.running || this.rowsSince < Math.max(this.minimum, this.rowsAtLastRun)) return;
    const counted = this.rowsSince;
    this.running = this.work()
      .catch(() => null)
      .then((rows) => {
        this.rowsAtLastRun = rows ?? this.rowsAtLastRun + counted;
        this.rowsSince -= counted;
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Waits for a run in progress (before the pool closes). */
  async settle(): Promise<void> {
    await this.running;
  }
}
