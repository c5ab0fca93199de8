/**
 * Keeps this process's event loop busy as a saturated gateway's is: `chunkMs` of work, a yield, again, for `totalMs`.
 * `afterChunk` runs after each chunk, before the yield (e.g. calls arriving at the busy loop).
 */
export async function saturate(totalMs: number, chunkMs: number, afterChunk?: () => void): Promise<void> {
  await saturateWhile(() => true, chunkMs, totalMs, afterChunk);
}

/**
 * The same for as long as `busy()` says, and at most `maxMs`: a test that waits for a state under load rather than
 * for a time.
 */
export async function saturateWhile(busy: () => boolean, chunkMs: number, maxMs: number, afterChunk?: () => void): Promise<void> {
  const until = Date.now() + maxMs;
  while (busy() && Date.now() < until) {
    const chunkEnd = Date.now() + chunkMs;
    while (Date.now() < chunkEnd) {
      // busy
    }
    afterChunk?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}
