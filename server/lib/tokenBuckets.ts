/**
 * One token bucket per key (an account id, …): `burst` tokens at most,
 * refilled at `perSecond`. Keys are kept in a bounded map: past `maxKeys` the
 * oldest bucket is forgotten, so a caller spraying made-up keys costs memory
 * for at most `maxKeys` buckets (a forgotten key starts again with a full bucket).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly options: { perSecond: number; burst: number; maxKeys?: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** What take would answer, without taking: 0 when `key` has a token, else the seconds until it will. */
  peek(key: string): number {
    const { perSecond, burst } = this.options;
    const previous = this.buckets.get(key);
    const tokens = previous ? Math.min(burst, previous.tokens + ((this.now() - previous.at) / 1000) * perSecond) : burst;
    if (tokens >= 1) return 0;
    return perSecond > 0 ? Math.max(1, Math.ceil((1 - tokens) / perSecond)) : Infinity;
  }

  /** Takes a token for `key`: 0 when there was one, else the seconds until there will be (for Retry-After). */
  take(key: string): number {
    const { perSecond, burst, maxKeys = 10_000 } = this.options;
    const now = this.now();
    const previous = this.buckets.get(key);
    const tokens = previous ? Math.min(burst, previous.tokens + ((now - previous.at) / 1000) * perSecond) : burst;
    this.buckets.delete(key);
    if (this.buckets.size >= maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(key, { tokens, at: now });
    return perSecond > 0 ? Math.max(1, Math.ceil((1 - tokens) / perSecond)) : Infinity;
  }
}
