// Waiting for something that happens in another process or on another connection, bounded.

import { DELIVERY_DELAY_MS } from '../../src/call/record.js';

/** Polls `check` (which may itself wait, e.g. for a request) every `everyMs` until it holds or `ms` pass; returns whether it held. */
export async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000, everyMs = 10): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}

/**
 * Resolves once the call records of every call that has ended are with the catalog's listeners.
 * They are handed over in a batch on a timer of DELIVERY_DELAY_MS; a longer timer set later fires
 * after it (timers fire in order of their due time), so this is an ordering, not a race.
 */
export function callRecordsDelivered(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, DELIVERY_DELAY_MS + 1));
}
