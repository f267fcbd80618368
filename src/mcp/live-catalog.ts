// The catalog a server serves right now. `serve --watch` swaps in a catalog loaded afresh; the
// MCP layer reads `current` on every request instead of holding one catalog, so a swap is one
// assignment and every request after it sees the new tools. A call runs through `use()`, which
// pins the catalog it started on: a catalog swapped out closes (its sandbox and HTTP client) only
// once the last call on it has settled.

import type { ServedCatalog } from './served-catalog.js';

export class LiveCatalog<Catalog extends ServedCatalog = ServedCatalog> {
  private catalog: Catalog;
  /** Calls running per catalog: the current one and those swapped out but not yet drained. */
  private readonly running = new Map<Catalog, number>();
  /** Catalogs swapped out that close once their count reaches zero. */
  private readonly retiring = new Map<Catalog, () => void>();
  /** Retirements under way: close() waits for them too. */
  private readonly closing = new Set<Promise<void>>();
  private readonly listeners = new Set<() => void>();
  /** Stops hearing the current catalog's own changes; set while anyone listens to this holder. */
  private stopForwarding: (() => void) | null = null;

  /**
   * `owned`: swapped-out catalogs are closed by this holder (a reloading server); a holder made
   * around a caller's catalog (`of`) never closes anything.
   */
  constructor(
    catalog: Catalog,
    private readonly owned = true,
  ) {
    this.catalog = catalog;
  }

  /** `source` itself if it is a holder, else a fixed holder around the caller's catalog. */
  static of<Catalog extends ServedCatalog>(source: Catalog | LiveCatalog<Catalog>): LiveCatalog<Catalog> {
    return source instanceof LiveCatalog ? source : new LiveCatalog(source, false);
  }

  get current(): Catalog {
    return this.catalog;
  }

  /** Calls `listener` when the tools served change: a swap, or the current catalog's own change. */
  onToolsChanged(listener: () => void): () => void {
    // The current catalog is listened to only while someone listens here: a holder made for one
    // request (\`of\`) leaves nothing behind on the catalog.
    this.listeners.add(listener);
    this.stopForwarding ??= this.forward(this.catalog);
    return () => {
      if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
      this.stopForwarding?.();
      this.stopForwarding = null;
    };
  }

  /** Runs `work` on the current catalog, which stays open until `work` settles even if swapped out meanwhile. */
  async use<T>(work: (catalog: Catalog) => Promise<T>): Promise<T> {
    const catalog = this.catalog;
    this.running.set(catalog, (this.running.get(catalog) ?? 0) + 1);
    try {
      return await work(catalog);
    } finally {
      const left = (this.running.get(catalog) ?? 1) - 1;
      if (left > 0) this.running.set(catalog, left);
      else {
        this.running.delete(catalog);
        this.retiring.get(catalog)?.();
      }
    }
  }

  /**
   * Serves `next` from now on and tells the listeners. Resolves once the catalog it replaced has
   * no call left and is closed (at once for a holder that does not own its catalogs).
   */
  swap(next: Catalog): Promise<void> {
    const previous = this.catalog;
    this.stopForwarding?.();
    this.catalog = next;
    this.stopForwarding = this.listeners.size > 0 ? this.forward(next) : null;
    this.changed();
    return this.retire(previous);
  }

  /** Closes the current catalog once its calls have settled, and waits for those swapped out before. */
  async close(): Promise<void> {
    this.stopForwarding?.();
    this.stopForwarding = null;
    await Promise.all([this.retire(this.catalog), ...this.closing]);
  }

  private retire(catalog: Catalog): Promise<void> {
    if (!this.owned) return Promise.resolve();
    const drained = this.running.has(catalog)
      ? new Promise<void>((resolve) => this.retiring.set(catalog, resolve))
      : Promise.resolve();
    const closed = drained.then(() => {
      this.retiring.delete(catalog);
      return catalog.close();
    });
    this.closing.add(closed);
    return closed.finally(() => this.closing.delete(closed));
  }

  private forward(catalog: Catalog): () => void {
    return catalog.onToolsChanged(() => this.changed());
  }

  private changed(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the others from hearing of the change.
      }
    }
  }
}
