// Heavy dependencies, loaded on first use instead of at start-up. A server whose checks all come
// from its cache never parses a file (acorn) or compiles a shape (Ajv), and it makes its first
// upstream request (undici) only after it has answered tools/list; together they are about a
// fifth of a second of a cold process start. All three are CommonJS, so `require` loads them
// synchronously where they are first needed.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

export const acorn = once(() => require('acorn') as typeof import('acorn'));
/**
 * Every Ajv instance of flowguard is made with `validateSchema: false`: checking a schema against
 * the 2020-12 meta-schema first compiles the meta-schema, about 70 ms per instance, and every
 * schema flowguard compiles is its own (the shapes, input and output schemas), each kind checked
 * against the meta-schema by the tests instead.
 */
export const Ajv2020 = once(() => (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020);
export const undici = once(() => require('undici') as typeof import('undici'));
