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
// makes no key. Which route goes when the table is full is chosen like a clock (second chance):
// the routes sit in a ring; a hit only marks its route; a hand goes round the ring, clears the
// marks it passes and drops the first route unmarked, whose place the new route takes, behind the
// hand. A route comes in unmarked: one asked only once goes when the hand comes round, one asked
// again meanwhile stays another round. A storm of one-off origins churns among itself while a
// route in steady use stays.

import type { AppliedLimits } from './limits.js';

/** Whose pause a request meets (its scope), and the limits that apply to it. */
export interface Route {
  readonly scope: string;
  readonly applied: AppliedLimits;
}

/** A route with its places: in its origin's chain and in the ring. */
interface Entry extends Route {
  readonly origin: string;
  readonly namespace: string;
  /** The next route of the same origin (another namespace). */
  sibling: Entry | undefined;
  /** Asked for since the hand last passed. */
  used: boolean;
}

export class RouteTable {
  private readonly byOrigin = new Map<string, Entry>();
  /** Every route kept, in the clock's order: never longer than `max`. */
  private readonly ring: Entry[] = [];
  /** The place in the ring the hand looks at next. */
  private hand = 0;

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
    return this.ring.length;
  }

  /** The route of `namespace` to `origin`: kept, or built and kept (in the place of the one the hand drops, when full). */
  get(origin: string, namespace: string): Route {
    for (let entry = this.byOrigin.get(origin); entry !== undefined; entry = entry.sibling) {
      if (entry.namespace === namespace) {
        entry.used = true;
        return entry;
      }
    }
    const { scope, applied } = this.build(origin, namespace);
    const entry: Entry = { scope, applied, origin, namespace, sibling: undefined, used: false };
    if (this.ring.length < this.max) this.ring.push(entry);
    else {
      const place = this.unmarkedPlace();
      this.unlink(this.ring[place] as Entry);
      this.ring[place] = entry;
      this.hand = (place + 1) % this.ring.length;
    }
    // Linked after the drop: the route dropped may have been the first of this origin's chain.
    entry.sibling = this.byOrigin.get(origin);
    this.byOrigin.set(origin, entry);
    return entry;
  }

  /** The place of the first unmarked route from the hand on. Bounded: one round clears every mark. */
  private unmarkedPlace(): number {
    const { ring } = this;
    let place = this.hand;
    for (let step = 0; step < ring.length && (ring[place] as Entry).used; step += 1) {
      (ring[place] as Entry).used = false;
      place = (place + 1) % ring.length;
    }
    return place;
  }

  /** Takes a route out of its origin's chain (and the origin out of the table with its last route). */
  private unlink(dropped: Entry): void {
    const first = this.byOrigin.get(dropped.origin) as Entry;
    if (first === dropped) {
      if (dropped.sibling === undefined) this.byOrigin.delete(dropped.origin);
      else this.byOrigin.set(dropped.origin, dropped.sibling);
      return;
    }
    let before = first;
    while (before.sibling !== dropped) before = before.sibling as Entry;
    before.sibling = dropped.sibling;
  }
}
