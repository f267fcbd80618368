// The key of one cached answer: sha256 over the tool (its reference, its schema as loaded and the
// reach of its handlers as configured), the call's arguments (checked, defaults applied, object
// keys sorted) and a fingerprint of the key values the schema declares. Two calls share an entry
// only when all agree, so an answer fetched with one API key is never served to a call made with
// another, a changed schema never serves its old answers (replicas on different versions, a
// reload), an origin the operator denied since (`network.deny`, a reload) serves nothing it
// answered before, and no key value is ever in the cache: only a hash of a hash of it.

import { createHash } from 'node:crypto';
import { sortedJson } from '../shared/sorted-json.js';
import type { CacheableTool } from './policy.js';

/** Prefix of every entry, so that the response cache's keys stand apart in a shared store (Redis). */
const KEY_PREFIX = 'flowguard:response:';

/** A key's value as the tool's namespace may use it; undefined when it has none. */
export type KeyValueOf = (key: string, namespace: string) => string | undefined;

/**
 * The part of the key that is the same for every call of `tool`: computed once per tool.
 * The schema's file path is left out, so replicas with the catalog in other folders agree.
 */
export function toolIdentity(tool: CacheableTool, keyValue: KeyValueOf): string {
  const { file: _file, ...schema } = tool.schema;
  return JSON.stringify([
    tool.reference,
    sha256(JSON.stringify(schema)),
    sha256(JSON.stringify(tool.reach.describe())),
    keyFingerprint(tool, keyValue),
  ]);
}

/** The store key of one call of the tool whose identity is `identity`, with checked arguments `args`. */
export function cacheKey(identity: string, args: Record<string, unknown>): string {
  return KEY_PREFIX + sha256(`${identity}\n${JSON.stringify(sortedJson(args))}`);
}

/** sha256 over the declared keys' names and values (a missing value as null), in name order. */
function keyFingerprint(tool: CacheableTool, keyValue: KeyValueOf): string {
  if (tool.declaredKeys.length === 0) return '';
  const values = [...tool.declaredKeys].sort().map((key) => [key, keyValue(key, tool.namespace) ?? null]);
  return sha256(JSON.stringify(values));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
