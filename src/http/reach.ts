// The reach of a schema's executeRequest handlers (RULINGS R12): the origins their requests may
// go to. It is what a reader of the schema can see: the root's origin (its `--marker--` labels
// each one DNS label, as for the core's own requests), the https origins written literally in
// the schema file or in the shared lists it references (a `${...}` label in a template literal
// counts as one DNS label too), then what the operator adds (`network.allow`) or takes out
// (`network.deny`, which wins) for the namespace. A key declared by the schema is bound to the
// root's origin, and to a literal origin whose text places the key's `{{KEY}}` placeholder.

import type { Template } from '../schema/types.js';
import { OriginRule } from './origin.js';

/** An https origin in text, its host labels literal or `${...}`, then the rest of that string. */
const LITERAL_ORIGIN = /https:\/\/((?:[a-z0-9-]+|\$\{[^}`'"\s]{1,80}\})(?:\.(?:[a-z0-9-]+|\$\{[^}`'"\s]{1,80}\}))+)(:\d{1,5})?([^\s'"`]*)/gi;
const EXPRESSION_LABEL = /^\$\{/;
/** Second-level labels under which one more label is still a public suffix (`x.co.uk`). */
const SUFFIX_LABELS = new Set(['co', 'com', 'net', 'org', 'gov', 'ac', 'edu']);

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
   * The reach of one schema: `root` (its canonical template), the text of its file and of the
   * lists it references, its declared keys, and the operator's settings for its namespace.
   */
  static of(input: { namespace: string; root: Template; fileText: string; listsText: string; keys: readonly string[] }, settings: ReachSettings): Reach {
    const entries: ReachEntry[] = [{ rule: new OriginRule(input.root), keys: new Set(input.keys), source: 'root' }];
    const seen = new Set([entries[0]?.rule.display]);
    const add = (text: string, source: 'file' | 'list') => {
      for (const { template, rest } of literalOrigins(text)) {
        const rule = new OriginRule(template);
        if (seen.has(rule.display)) continue;
        seen.add(rule.display);
        entries.push({ rule, keys: new Set(input.keys.filter((key) => rest.includes(`{{${key}}}`))), source });
      }
    };
    add(input.fileText, 'file');
    add(input.listsText, 'list');
    for (const origin of settings.allow[input.namespace] ?? []) {
      const template = originTemplate(origin);
      if (template && !seen.has(origin)) entries.push({ rule: new OriginRule(template), keys: new Set(), source: 'config' });
    }
    const deny = settings.deny[input.namespace] ?? [];
    return new Reach(input.namespace, entries, new Set(deny.flatMap((origin) => originTemplate(origin) ? [new URL(origin).origin] : [])), deny.includes('*'));
  }

  /** Whether a request to `url` may leave. */
  allows(url: URL): boolean {
    if (this.deniesAll || this.denied.has(url.origin)) return false;
    return this.entries.some((entry) => entry.rule.allows(url.href));
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
      origins: this.entries.map((entry) => ({ origin: entry.rule.display, source: entry.source, ...(entry.keys.size > 0 ? { keys: [...entry.keys] } : {}) })),
      denied: this.deniesAll ? ['*'] : [...this.denied],
    };
  }
}

/** The https origins written in `text`, as templates whose `${...}` labels are markers, and the rest of each string. */
function literalOrigins(text: string): Array<{ template: Template; rest: string }> {
  const found: Array<{ template: Template; rest: string }> = [];
  for (const match of text.matchAll(LITERAL_ORIGIN)) {
    const labels = (match[1] as string).split('.');
    // Markers must not make up the registrable domain (R5): the last two labels are written out,
    // three under a public second level.
    const fixed = SUFFIX_LABELS.has((labels.at(-2) ?? '').toLowerCase()) ? 3 : 2;
    if (labels.length < fixed || labels.slice(-fixed).some((label) => EXPRESSION_LABEL.test(label))) continue;
    const template: Template = [
      { kind: 'literal', text: 'https://' },
      ...labels.flatMap((label, index) => {
        const dot = index > 0 ? [{ kind: 'literal' as const, text: '.' }] : [];
        return EXPRESSION_LABEL.test(label) ? [...dot, { kind: 'marker' as const, name: `label${index}` }] : [...dot, { kind: 'literal' as const, text: label.toLowerCase() }];
      }),
      { kind: 'literal', text: match[2] ?? '' },
    ];
    found.push({ template, rest: match[3] ?? '' });
  }
  return found;
}

/** An operator's origin (`https://host[:port]`, or http) as a template; null when it is none. */
function originTemplate(origin: string): Template | null {
  try {
    const url = new URL(origin);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.pathname !== '/' || url.search) return null;
    return [{ kind: 'literal', text: url.origin }];
  } catch {
    return null;
  }
}
