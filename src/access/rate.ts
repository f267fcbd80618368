// An identity's own rate of tool calls (`identities.<name>.rateLimit`): a token bucket, refilled
// continuously, shared by every caller of the identity in this process. (The upstream limits of
// src/guard/ protect the APIs; this one shares the server fairly between identities.)

export class RateBucket {
  private tokens: number;
  private updated = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Takes one call's token: undefined when it may go, else the seconds until one is free. */
  take(): number | undefined {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.updated) / 1000) * this.perSecond);
    this.updated = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return undefined;
    }
    return Math.ceil((1 - this.tokens) / this.perSecond);
  }
}
