// Heavy dependencies, loaded on first use instead of at start-up. A server whose checks all come
// from its cache never parses a file (meriyah); a server compiles argument and output validators
// (Ajv) only once it has answered tools/list (document shapes have generated code; the MCP
// SDK's server module still loads Ajv itself), and it makes its first upstream request (undici)
// after that too. Each has a CommonJS build, so `require` loads it
// synchronously where it is first needed.

import { createRequire } from 'node:module';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import { ajvRegExp } from './pattern.js';

const require = createRequire(import.meta.url);

/** A value made on first use and kept. */
export function once<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

export const meriyah = once(() => require('meriyah') as typeof import('meriyah'));
const ajv2020 = once(() => (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020);

/**
 * An Ajv 2020 instance that does not check schemas against the 2020-12 meta-schema: that check
 * first compiles the meta-schema, about 70 ms per instance, and every schema flowguard compiles
 * at run time is its own (tools' input and output schemas), each kind checked by the tests
 * instead. Document shapes are compiled at build time (scripts/generate.ts). Its patterns are
 * matched in linear time (pattern.ts): they come from schema files and meet what others send.
 */
export function newAjv(options: Options): Ajv2020 {
  return new (ajv2020())({ ...options, validateSchema: false, code: { ...options.code, regExp: ajvRegExp } });
}
export const undici = once(() => require('undici') as typeof import('undici'));
/** The public suffix list (about 50 ms to load), for roots with `--marker--` labels only. */
export const tldts = once(() => require('tldts') as typeof import('tldts'));
