// Whose a pause is. An API that answers 429 limits one caller: the key the
// request carried, or, for a request without one, the caller's address. A pause therefore belongs
// to the origin and the credential of the namespace whose request received it, never to the origin
// alone: a schema that fetches a 429 at another schema's origin (through executeRequest, or a root
// of its own pointing there) pauses only itself. The credential is the keys the namespace binds to
// that origin, the ones its requests there can carry: two namespaces share a pause only when the
// operator granted both the same key value and both send it there (the API then limits them
// together as well); a request that cannot carry the key is not limited as its holder.

import { createHash } from 'node:crypto';

/**
 * The credential part of a pause's scope: a hash of the key values the namespace is granted and
 * binds to the origin (so Redis holds no key, only a hash of it), or the namespace itself when
 * there are none.
 */
export function credentialOf(namespace: string, keyValues: ReadonlyArray<string | undefined>): string {
  const values = [...new Set(keyValues.filter((value): value is string => value !== undefined))].sort();
  if (values.length === 0) return `namespace:${namespace}`;
  return `keys:${createHash('sha256')
    .update(`flowguard pause\n${JSON.stringify(values)}`)
    .digest('hex')
    .slice(0, 32)}`;
}
