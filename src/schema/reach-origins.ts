// The https origins a schema's text writes (decision R12): with the root's origin and the
// operator's settings they make the reach of its executeRequest handlers (src/http/reach.ts).
// Read once, from the text that was checked, so that an edit of the file after the check
// widens nothing. A `${...}` label of a template literal stands for one DNS label, never for the
// registrable domain (marker-host.ts). A literal that is no usable origin is a finding with its
// line and is left out; it never fails a call.
//
// Only the schema's own file binds a key to an origin: its string that places a key's
// `{{KEY}}` after an origin binds that key there. A shared list's text widens the reach and
// binds no key, whatever its URL templates say.

import type { ListEntry } from '../lists/types.js';
import type { FindingSink } from '../report/findings.js';
import { openHost, STAND_IN_LABEL } from './marker-host.js';
import type { CanonicalSchema, ReachOrigin, TemplatePart } from './types.js';

/** An https origin in text, its host labels literal or `${...}`, then the rest of that string. */
const LITERAL_ORIGIN =
  /https:\/\/((?:[a-z0-9-]+|\$\{[^}`'"\s]{1,80}\})(?:\.(?:[a-z0-9-]+|\$\{[^}`'"\s]{1,80}\}))+)(:\d{1,5})?([^\s'"`]*)/gi;
const FILL_IN_LABEL = /^\$\{/;
const HINT =
  'write the origin as https://host[:port] with a host a URL can name; a ${...} label may only stand for a label under a fixed domain, as in https://${chain}.rpc.example.com';

interface Found {
  origin: ReachOrigin;
  /** How people read it, e.g. `https://--label0--.rpc.example.com`: one entry per origin. */
  display: string;
}

/** The origins written in the file's `text` and in the `lists` it references, each once; the keys are those of `requiredServerParams`. */
export function readReachOrigins(
  text: string,
  lists: CanonicalSchema['resolvedLists'],
  keys: readonly string[],
  sink: FindingSink,
): ReachOrigin[] {
  const byDisplay = new Map<string, ReachOrigin>();
  const take = ({ origin, display }: Found) => {
    const known = byDisplay.get(display);
    // A copy: a list entry's origins are shared by every schema that reads it.
    if (!known) byDisplay.set(display, { ...origin, keys: [...origin.keys] });
    else for (const key of origin.keys) if (!known.keys.includes(key)) known.keys.push(key);
  };
  for (const match of text.matchAll(LITERAL_ORIGIN)) {
    const found = originOf(match, 'file', keys);
    if (typeof found === 'string')
      sink.addAtFileOffset(
        'SEC023',
        match.index,
        `${literalText(match)} ${found}; left out of the reach of the executeRequest handlers`,
        HINT,
      );
    else take(found);
  }
  for (const [name, entries] of Object.entries(lists)) {
    for (const entry of entries) {
      for (const found of listEntryOrigins(entry)) {
        if ('why' in found)
          sink.add(
            'SEC023',
            'main.sharedLists',
            `the list ${name} writes ${found.literal}, which ${found.why}; left out of the reach of the executeRequest handlers`,
            HINT,
          );
        else take(found);
      }
    }
  }
  return [...byDisplay.values()];
}

type EntryOrigins = ReadonlyArray<Found | { literal: string; why: string }>;
/** Per list entry (frozen, and shared by every schema that references its list): read once per process. */
const entryOrigins = new WeakMap<ListEntry, EntryOrigins>();

function listEntryOrigins(entry: ListEntry): EntryOrigins {
  let found = entryOrigins.get(entry);
  if (!found) {
    found = [...JSON.stringify(entry).matchAll(LITERAL_ORIGIN)].map((match) => {
      const origin = originOf(match, 'list', []);
      return typeof origin === 'string' ? { literal: literalText(match), why: origin } : origin;
    });
    entryOrigins.set(entry, found);
  }
  return found;
}

/** The origin a match writes, or why it cannot be one. */
function originOf(match: RegExpMatchArray, source: ReachOrigin['source'], keys: readonly string[]): Found | string {
  const labels = (match[1] as string).split('.');
  const port = match[2] ?? '';
  const host = labels.map((label) => (FILL_IN_LABEL.test(label) ? STAND_IN_LABEL : label.toLowerCase())).join('.');
  try {
    new URL(`https://${host}${port}`);
  } catch {
    // new URL throws only on a host no URL can name: that is the finding's text.
    return 'is no https origin a URL can name';
  }
  if (labels.some((label) => FILL_IN_LABEL.test(label)) && openHost(host) !== null)
    return 'has ${...} labels where the registrable domain must be written out (public suffix list), so it could stand for any site';
  const parts: TemplatePart[] = [{ kind: 'literal', text: 'https://' }];
  labels.forEach((label, index) => {
    if (index > 0) parts.push({ kind: 'literal', text: '.' });
    parts.push(
      FILL_IN_LABEL.test(label)
        ? { kind: 'marker', name: `label${index}` }
        : { kind: 'literal', text: label.toLowerCase() },
    );
  });
  if (port) parts.push({ kind: 'literal', text: port });
  const rest = match[3] ?? '';
  const display = parts
    .map((part) => (part.kind === 'marker' ? `--${part.name}--` : part.kind === 'literal' ? part.text : ''))
    .join('');
  return { origin: { template: parts, source, keys: keys.filter((key) => rest.includes(`{{${key}}}`)) }, display };
}

/** The literal as written, cut to a readable length. */
function literalText(match: RegExpMatchArray): string {
  const written = `https://${match[1] as string}${match[2] ?? ''}`;
  return written.length > 120 ? `${written.slice(0, 117)}...` : written;
}
