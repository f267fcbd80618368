// The upstream guard's one table of what it works out per namespace and origin: the pause scope a
// request meets and the limits it is under (a route). Bounded: a schema whose reach has a
// `${label}` or wildcard origin lets its executeRequest handler name any number of origins, and
// the table keeps at most `max` routes however many it is asked for.
//
// A route holds nothing live, only what it was built from (the config and the namespace's
// credential), so any route may be dropped at any time and is built again the same on its next
// request: the slots in flight and their waiters are kept by name in SlotPools and the guard's
// waiting lists (each gone once idle), pauses and rate buckets in the SharedState. No request,
// waiter, pause or token is lost when a route goes, and the bound holds even when every route is
// busy.
//
// A hit is one Map lookup by origin: the routes of one origin are chained, one per namespace
// (few: namespaces are the catalog's), so a call looks up with the strings it already holds and
// makes no key. Which origin goes when the table is full is chosen like a clock (second chance):
// a hit only marks its origin used; a hand goes round the origins, gives a used one another round
// and drops the first that was not used since it last passed. An origin in steady use stays while
// one-off origins come and go.

import type { AppliedLimits } from './limits.js';

/** Whose pause a request meets (its scope), and the limits that apply to it. */
export interface Route {
  readonly scope: string;
  readonly applied: AppliedLimits;
}

/** A route with its place in the table: the first of an origin's chain carries the origin's mark. */
interface Entry extends Route {
  readonly namespace: string;
  /** The next route of the same origin (another namespace). */
  readonly sibling: Entry | undefined;
  /** Asked for since the hand last passed (meaningful on the first of a chain). */
  used: boolean;
}

export class RouteTable {
  private readonly byOrigin = new Map<string, Entry>();
  private held = 0;
  /** The clock's hand: a live iterator over the origins, begun again when it runs out. */
  private hand: Iterator<[string, Entry]> = this.byOrigin.entries();

  /**
   * @param max the most routes kept (at least 1)
   * @param build works out the route of a namespace and origin; the same answer every time
   */
  constructor(
    private readonly max: number,
    private readonly build: (origin: string, namespace: string) => Route,
  ) {
    if (!(max >= 1)) throw new RangeError(`a route table keeps at least 1 route, not ${max}`);
  }

  /** How many routes are kept now (never more than `max`). */
  get size(): number {
    return this.held;
  }

  /** The route of `namespace` to `origin`: kept, or built (making room first) and kept. */
  get(origin: string, namespace: string): Route {
    const first = this.byOrigin.get(origin);
    for (let entry = first; entry !== undefined; entry = entry.sibling) {
      if (entry.namespace === namespace) {
        (first as Entry).used = true;
        return entry;
      }
    }
    return this.add(origin, namespace);
  }

  private add(origin: string, namespace: string): Route {
    const route = this.build(origin, namespace);
    if (this.held >= this.max) this.makeRoom();
    // Looked up again: making room may have dropped this origin's chain.
    const sibling = this.byOrigin.get(origin);
    const entry: Entry = { scope: route.scope, applied: route.applied, namespace, sibling, used: true };
    this.byOrigin.set(origin, entry);
    this.held += 1;
    return entry;
  }

  /**
   * Drops origins until one more route fits. Bounded: the first round clears every mark, so
   * within two rounds of the hand an origin goes; each origin dropped takes all its routes.
   */
  private makeRoom(): void {
    for (let steps = 2 * this.byOrigin.size + 1; this.held >= this.max && steps > 0; steps -= 1) {
      let next = this.hand.next();
      if (next.done) {
        this.hand = this.byOrigin.entries();
        next = this.hand.next();
        if (next.done) return;
      }
      const [origin, first] = next.value;
      if (first.used) {
        first.used = false;
        continue;
      }
      this.byOrigin.delete(origin);
      for (let entry: Entry | undefined = first; entry !== undefined; entry = entry.sibling) this.held -= 1;
    }
  }
}
