// The reach of a schema's executeRequest handlers (decision R12): the origins their requests may
// go to. It is what a reader of the schema can see: the root's origin (its `--marker--` labels
// each one DNS label, as for the core's own requests), the https origins written in the schema
// file or in the shared lists it references, as its check read them (src/schema/reach-origins.ts),
// then what the operator adds (`network.allow`) or takes out (`network.deny`, which wins) for
// the namespace. A key declared by the schema is bound to the root's origin, and to an origin
// whose text in the schema's own file places the key's `{{KEY}}` placeholder; never by a list.
// Compiled once per schema from what its check read: a call reads no file and parses no text.

import type { ReachOrigin, Template } from '../schema/types.js';
import { OriginRule } from './origin.js';

export interface ReachSettings {
  allow: Readonly<Record<string, readonly string[]>>;
  deny: Readonly<Record<string, readonly string[]>>;
}

/** One origin (or pattern of origins) in the reach, and the keys bound to it. */
interface ReachEntry {
  rule: OriginRule;
  keys: ReadonlySet<string>;
  /** Where it comes from, for `list --json` and `doctor`. */
  source: 'root' | 'file' | 'list' | 'config';
}

export class Reach {
  private constructor(
    readonly namespace: string,
    private readonly entries: readonly ReachEntry[],
    private readonly denied: ReadonlySet<string>,
    private readonly deniesAll: boolean,
  ) {}

  /**
   * The reach of one schema: `root` (its canonical template), the origins its check read from its
   * file and lists, its declared keys, and the operator's settings for its namespace.
   */
  static of(
    input: { namespace: string; root: Template; origins: readonly ReachOrigin[]; keys: readonly string[] },
    settings: ReachSettings,
  ): Reach {
    const entries: ReachEntry[] = [{ rule: new OriginRule(input.root), keys: new Set(input.keys), source: 'root' }];
    const seen = new Set([entries[0]?.rule.display]);
    for (const { template, source, keys } of input.origins) {
      const rule = new OriginRule(template);
      if (seen.has(rule.display)) continue;
      seen.add(rule.display);
      // Only the schema's own file binds keys: the check gives a list's origins none (reach-origins.ts).
      entries.push({ rule, keys: new Set(keys), source });
    }
    for (const origin of settings.allow[input.namespace] ?? []) {
      const template = originTemplate(origin);
      if (template && !seen.has(origin))
        entries.push({ rule: new OriginRule(template), keys: new Set(), source: 'config' });
    }
    const deny = settings.deny[input.namespace] ?? [];
    return new Reach(
      input.namespace,
      entries,
      new Set(deny.flatMap((origin) => (originTemplate(origin) ? [new URL(origin).origin] : []))),
      deny.includes('*'),
    );
  }

  /** Whether a request to `url` may leave. */
  allows(url: URL): boolean {
    if (this.deniesAll || this.denied.has(url.origin)) return false;
    return this.entries.some((entry) => entry.rule.allows(url.href));
  }

  /**
   * Whether `url` is in the reach by the root or the operator's `network.allow`, not only by an
   * origin some text writes (a comment suffices for that).
   */
  allowsBeyondText(url: URL): boolean {
    return (
      this.allows(url) &&
      this.entries.some((entry) => entry.source !== 'file' && entry.source !== 'list' && entry.rule.allows(url.href))
    );
  }

  /** Whether the value of `key` may go to `url` (the reach allows it, and the key is bound there). */
  binds(key: string, url: URL): boolean {
    return this.allows(url) && this.entries.some((entry) => entry.keys.has(key) && entry.rule.allows(url.href));
  }

  /** Where `key` may go, as people read it. */
  boundOrigins(key: string): string[] {
    return this.entries.filter((entry) => entry.keys.has(key)).map((entry) => entry.rule.display);
  }

  /** The reach as `list --json` and `doctor` show it. */
  describe(): { origins: Array<{ origin: string; source: string; keys?: string[] }>; denied: string[] } {
    return {
      origins: this.entries.map((entry) => ({
        origin: entry.rule.display,
        source: entry.source,
        ...(entry.keys.size > 0 ? { keys: [...entry.keys] } : {}),
      })),
      denied: this.deniesAll ? ['*'] : [...this.denied],
    };
  }
}

/** An operator's origin (`https://host[:port]`, or http) as a template; null when it is none. */
function originTemplate(origin: string): Template | null {
  try {
    const url = new URL(origin);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search) return null;
    return [{ kind: 'literal', text: url.origin }];
  } catch {
    // new URL throws only on a malformed origin: no reach from it.
    return null;
  }
}
