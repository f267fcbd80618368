// Concurrency limits: a pool of slots per origin (or namespace and origin), in this process.
// A request beyond the limit waits its turn (first come, first served), at most
// MAX_SLOT_WAIT_MS or until its call is aborted; then it is refused, never left hanging.
// The guard also aborts the waiters of a pause's scope the moment the pause begins (11a).

/** Longest a request waits for a free slot before it is refused. */
export const MAX_SLOT_WAIT_MS = 10_000;

interface Waiter {
  grant: () => void;
}

/** A slot taken: `release` once its request settled; `waited` whether it had to wait its turn. */
export interface Slot {
  release: () => void;
  waited: boolean;
}

class Pool {
  active = 0;
  readonly waiting: Waiter[] = [];
}

export class SlotPools {
  private readonly pools = new Map<string, Pool>();

  /** A slot if one is free now (its release), or null: then `acquire` waits for one. */
  tryAcquire(name: string, size: number): (() => void) | null {
    const pool = this.pools.get(name) ?? new Pool();
    if (pool.active >= size) return null;
    if (pool.active === 0) this.pools.set(name, pool);
    pool.active += 1;
    return this.releaser(name, pool);
  }

  /**
   * A slot once one is free, or null when none freed in time. A waiter whose signal aborts gets a
   * release that holds no slot: the caller looks at why its signal aborted, and sends nothing.
   */
  acquire(name: string, size: number, signal?: AbortSignal): Promise<Slot | null> {
    const free = this.tryAcquire(name, size);
    if (free) return Promise.resolve({ release: free, waited: false });
    const owned = this.pools.get(name) as Pool;
    if (signal?.aborted) return Promise.resolve({ release: () => undefined, waited: true });
    return new Promise((resolve) => {
      const leave = (answer: Slot | null) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        const index = owned.waiting.indexOf(waiter);
        if (index >= 0) owned.waiting.splice(index, 1);
        this.dropIfIdle(name, owned);
        resolve(answer);
      };
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
          resolve({ release: this.releaser(name, owned), waited: true });
        },
      };
      const aborted = () => leave({ release: () => undefined, waited: true });
      const timer = setTimeout(() => leave(null), MAX_SLOT_WAIT_MS);
      signal?.addEventListener('abort', aborted, { once: true });
      owned.waiting.push(waiter);
    });
  }

  private releaser(name: string, pool: Pool): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = pool.waiting.shift();
      // The slot passes straight to the next waiter, so a newcomer cannot take it first.
      if (next) next.grant();
      else {
        pool.active -= 1;
        this.dropIfIdle(name, pool);
      }
    };
  }

  private dropIfIdle(name: string, pool: Pool): void {
    if (pool.active === 0 && pool.waiting.length === 0) this.pools.delete(name);
  }
}
