// The programmatic API: load a folder of schemas, then call its tools.
//
//   const catalog = await loadCatalog({ schemas: 'schemas' });
//   const result = await catalog.call('coingecko_getSimplePrice', { ids: 'bitcoin' }, { signal });
//   await catalog.close();

import { Catalog, type CatalogOptions } from './runtime/catalog.js';

export function loadCatalog(options: CatalogOptions): Promise<Catalog> {
  return Catalog.load(options);
}

export { Catalog };
export type { CatalogOptions };
export type { CallOptions, CallResult, ToolError, ToolErrorKind, SentRequest } from './call/pipeline.js';
export type { Tool } from './catalog/tools.js';
export type { Decoded } from './http/decode.js';
export type { Finding, Severity, Code } from './report/findings.js';
export { CODES } from './report/findings.js';
