// MCP tool names for the routes of a catalog (decision R8, SPEC-NOTES §18).
//
// The spec only defines the reference `namespace/file.mjs::routeName`; it contains `/`, `.` and
// `:`, which clients that enforce `^[A-Za-z0-9_-]{1,64}$` reject. Every route therefore gets a
// name from the first of three steps that gives it one:
//
//   1. short   `namespace_routeName`, exactly as written, if it matches `^[A-Za-z0-9_-]{1,64}$`
//              and no other tool of the catalog has the same short name.
//   2. stem    `namespace_fileStem_routeName` (fileStem: the file's base name without `.mjs`),
//              every character outside `[A-Za-z0-9_-]` replaced by one `_` (per code point), if
//              that is at most 64 characters, no other tool has the same stem name, and no other
//              tool has it as its short name.
//   3. hashed  the stem name cut so that `_` + the first 8 hex digits of SHA-256(reference) fit
//              into 64 characters (trailing `_` of the cut part dropped). In the rare case that
//              this string is already taken, `_<hash>_1`, `_<hash>_2`, … are tried in turn.
//
// Decisions
// - A collision demotes every tool involved, not "the second one": the pegelonline files
//   pegelonline.mjs and water-levels.mjs both declare getStations, so both become
//   `pegelonline_pegelonline_getStations` and `pegelonline_water-levels_getStations`. Which file was
//   read first never matters.
// - Collisions after sanitising: a stem name is only ever compared after sanitising, so `a/b` and
//   `a:b` in one namespace and file (both `ns_file_a_b`) collide and both are hashed; their
//   references differ, so their hashes differ. Likewise a stem name that equals some other tool's
//   short name is hashed (ens/resolver.mjs::lookup, its short name `ens_lookup` taken twice, would
//   be `ens_resolver_lookup`; if an ens route is literally named `resolver_lookup`, that route
//   keeps `ens_resolver_lookup` and lookup is hashed): a short name is never given up for a longer
//   one.
// - The comparisons in steps 1 and 2 are against the candidates of *all* other tools, whatever
//   step those tools end in. That makes each tool's step a function of pairwise comparisons only
//   (no chains: one tool's demotion never demotes a third), which is what the stability rules
//   below rest on. The price: a tool can lose its stem name to a tool that itself kept its short
//   name; it is then hashed, still unique and valid.
// - The hash is over the reference, so it can be recomputed from the reference that travels in
//   the tool's title/_meta. Two tools share a reference only when one namespace has files of the
//   same base name in two folders with the same route; the reference is then ambiguous for
//   groups, but the names are not: the hash is taken, and the later of the two in canonical
//   order gets `_<hash>_1`.
// - Names compare case-sensitively, as MCP tool names do.
// - The same identity (namespace, file, route) given twice is a caller's bug (a schema cannot
//   declare a route twice; the literal reader rejects a second key): nameTools throws.
//
// Determinism: the input is copied and sorted canonically (namespace, then file, then route,
// by UTF-16 code units, no locale) before naming, and the result is returned in that order. Steps
// 1 and 2 do not depend on order at all; step 3 visits tools in canonical order. So the same
// catalog gets the same names however its files were read.
//
// Uniqueness, by construction:
// - two short names are equal only if two tools have the same short name, which step 1 excludes;
// - two stem names are equal only if two tools have the same stem name, which step 2 excludes;
// - a short name equal to another tool's stem name is excluded by step 2 (the stem name is
//   refused; the stem name of a tool never equals its own short name, being longer);
// - step 3 keeps a set of every name given so far (all short and stem names first) and gives a
//   tool the first candidate not in it, adding it. For one tool the candidates `_<hash>_k`,
//   k = 1, 2, …, are pairwise different (they differ in the part after the last `_`), so at most
//   |set| of them are taken and the search ends by k = |set| + 1.
// Every name is valid: step 1 checks the pattern, steps 2 and 3 produce only `[A-Za-z0-9_-]`
// and check or enforce the length (a hashed name is at least 9 characters long).
//
// Stability: when tools are added to or removed from a catalog, the name of a tool T changes
// only in these cases, and in no other:
// - T has a short name: another tool with the same short name (same namespace and route) is
//   added. T then gets its stem name, or a hashed name if that collides too.
// - T has a stem name: a tool is added whose stem name or whose short name equals T's stem name
//   (T is hashed); or every other tool with T's short name is removed (T gets its short name back).
// - T has a hashed name: a tool is removed whose short or stem name collided with T's (T moves up
//   to the stem or short name); or a tool is added or removed whose name is, or would be, one of
//   T's hashed candidates `..._<hash>[_k]`. That needs two tools with one reference, a 32-bit hash
//   collision, or a route name crafted to look like a hashed name; the tool first in canonical
//   order gets `_<hash>`, the next `_<hash>_1`, and so on.
// Adding a file whose routes share neither the short name, nor the stem name, nor a hashed
// candidate with T never renames T; in particular T's name never depends on how many tools the
// catalog holds or in which order they were read.

import { createHash } from 'node:crypto';
import { compareStrings } from '../shared/sorted-json.js';

export interface ToolIdentity {
  namespace: string;
  /** Path of the schema file relative to the schemas folder, e.g. 'coingecko/prices.mjs'. */
  file: string;
  route: string;
}

export interface NamedTool extends ToolIdentity {
  /** The MCP tool name: unique in the catalog, matches `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  /** `namespace/file.mjs::route`, for the tool's title or `_meta`. */
  reference: string;
}

const MAX_TOOL_NAME_LENGTH = 64;
const VALID_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const OUTSIDE_SET = /[^A-Za-z0-9_-]/gu;
const HASH_HEX_DIGITS = 8;
const SCHEMA_EXTENSION = '.mjs';

/** Whether a client that enforces `^[A-Za-z0-9_-]{1,64}$` accepts `name`. */
export function isValidToolName(name: string): boolean {
  return VALID_NAME.test(name);
}

/** `namespace/file.mjs::route`, where `file.mjs` is the base name of the schema file. */
export function toolReference(tool: ToolIdentity): string {
  return `${tool.namespace}/${baseName(tool.file)}::${tool.route}`;
}

/**
 * Names every route of a catalog per R8, deterministically: the same catalog always gets the same
 * names, whatever order the files were read in. The result is in canonical order (namespace, file,
 * route). Throws if the same identity is given twice.
 */
export function nameTools(tools: readonly ToolIdentity[]): NamedTool[] {
  const sorted = tools.map(({ namespace, file, route }) => ({ namespace, file, route })).sort(compareIdentities);
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1] as ToolIdentity;
    const current = sorted[index] as ToolIdentity;
    if (compareIdentities(previous, current) === 0) {
      throw new Error(
        `tool given twice: route '${current.route}' of '${current.file}' (namespace '${current.namespace}')`,
      );
    }
  }

  const candidates = sorted.map((tool) => ({
    tool,
    reference: toolReference(tool),
    short: `${tool.namespace}_${tool.route}`,
    stem: sanitize(`${tool.namespace}_${fileStem(tool.file)}_${tool.route}`),
  }));
  const shortCount = countOf(candidates.map((candidate) => candidate.short));
  const stemCount = countOf(candidates.map((candidate) => candidate.stem));

  // Steps 1 and 2: each decision compares this tool's candidates with every other tool's.
  const names: Array<string | undefined> = candidates.map(({ short, stem }) => {
    if (isValidToolName(short) && shortCount.get(short) === 1) return short;
    const othersWithStemAsShort = (shortCount.get(stem) ?? 0) - (short === stem ? 1 : 0);
    if (stem.length <= MAX_TOOL_NAME_LENGTH && stemCount.get(stem) === 1 && othersWithStemAsShort === 0) return stem;
    return undefined;
  });

  // Step 3, in canonical order, against every name given so far.
  const taken = new Set(names.filter((name): name is string => name !== undefined));
  candidates.forEach(({ reference, stem }, index) => {
    if (names[index] !== undefined) return;
    const hash = createHash('sha256').update(reference, 'utf8').digest('hex').slice(0, HASH_HEX_DIGITS);
    for (let attempt = 0; ; attempt += 1) {
      const name = hashedName(stem, attempt === 0 ? `_${hash}` : `_${hash}_${attempt}`);
      if (!taken.has(name)) {
        taken.add(name);
        names[index] = name;
        return;
      }
    }
  });

  return candidates.map(({ tool, reference }, index) => ({ ...tool, name: names[index] as string, reference }));
}

function hashedName(stem: string, suffix: string): string {
  const room = Math.max(0, MAX_TOOL_NAME_LENGTH - suffix.length);
  return stem.slice(0, room).replace(/_+$/, '') + suffix;
}

function sanitize(text: string): string {
  return text.replace(OUTSIDE_SET, '_');
}

function baseName(file: string): string {
  const parts = file.split(/[\\/]/);
  return parts[parts.length - 1] ?? file;
}

function fileStem(file: string): string {
  const base = baseName(file);
  return base.endsWith(SCHEMA_EXTENSION) ? base.slice(0, -SCHEMA_EXTENSION.length) : base;
}

function compareIdentities(a: ToolIdentity, b: ToolIdentity): number {
  return compareStrings(a.namespace, b.namespace) || compareStrings(a.file, b.file) || compareStrings(a.route, b.route);
}

function countOf(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}
