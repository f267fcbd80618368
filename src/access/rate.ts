// An identity's own rate of tool calls (`identities.<name>.rateLimit`): a token bucket kept where
// the server keeps its other buckets (state/shared-state.ts: in the process, or in Redis so that
// every replica draws on one bucket per identity). The upstream limits of src/guard/ protect the
// APIs; this one shares the server fairly between identities.

/** SharedState.take, as this room needs it (access/ knows no state type). */
export type TakeToken = (
  bucket: string,
  capacity: number,
  refillPerSecond: number,
) => Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;

export class IdentityRate {
  constructor(
    private readonly bucket: string,
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly takeToken: TakeToken,
  ) {}

  /** Takes one call's token: undefined when it may go, else the whole seconds until one is free. */
  async take(): Promise<number | undefined> {
    const taken = await this.takeToken(this.bucket, this.burst, this.perSecond);
    return taken.ok ? undefined : Math.max(1, Math.ceil(taken.retryAfterMs / 1000));
  }
}
