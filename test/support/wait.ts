// Waiting for something that happens in another process or on another connection, bounded.

/** Polls `check` every 10 ms until it holds or `ms` pass; returns whether it held. */
export async function waitFor(check: () => boolean, ms = 5_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return check();
}
