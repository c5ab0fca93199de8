/**
 * Rows that many callers append at once, written together (group commit). A row goes out at once when fewer than
 * `concurrency` writes are under way; otherwise it waits for one to finish and goes with the next write, which
 * carries every row queued meanwhile (at most `maxRows`). Under load one statement then carries many rows, and
 * alone a row waits for nothing. Each caller is answered when the write carrying its row has finished, so nothing
 * is acknowledged before it is stored. A write of several rows that fails is tried again row by row, so one bad row
 * fails only its own caller.
 */
export class GroupedWrites<Row> {
  private readonly queue: { row: Row; done: (error?: unknown) => void }[] = [];
  private writing = 0;
  private readonly maxRows: number;
  private readonly concurrency: number;

  constructor(
    private readonly write: (rows: Row[]) => Promise<void>,
    options: { maxRows?: number; concurrency?: number } = {},
  ) {
    this.maxRows = options.maxRows ?? 200;
    this.concurrency = options.concurrency ?? 2;
  }

  add(row: Row): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, done: (error) => (error === undefined ? resolve() : reject(error)) });
      this.pump();
    });
  }

  private pump(): void {
    while (this.writing < this.concurrency && this.queue.length) {
      const batch = this.queue.splice(0, this.maxRows);
      this.writing++;
      void this.flush(batch).finally(() => {
        this.writing--;
        this.pump();
      });
    }
  }

  private async flush(batch: { row: Row; done: (error?: unknown) => void }[]): Promise<void> {
    try {
      await this.write(batch.map((item) => item.row));
      for (const item of batch) item.done();
    } catch (error) {
      if (batch.length === 1) return batch[0]!.done(error ?? new Error('the write failed'));
      for (const item of batch) {
        try {
          await this.write([item.row]);
          item.done();
        } catch (alone) {
          item.done(alone ?? new Error('the write failed'));
        }
      }
    }
  }
}
