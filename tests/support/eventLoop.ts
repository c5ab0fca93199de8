/** Keeps this process's event loop busy as a saturated gateway's is: `chunkMs` of work, a yield, again, for `totalMs`. */
export async function saturate(totalMs: number, chunkMs: number): Promise<void> {
  const until = Date.now() + totalMs;
  while (Date.now() < until) {
    const chunkEnd = Date.now() + chunkMs;
    while (Date.now() < chunkEnd) {
      // busy
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}
