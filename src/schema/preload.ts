// Semantic checks of a route's `preload` and its canonical form. Ajv has already checked the
// shape (VAL080–VAL083); a preload of the wrong shape yields no canonical form here and no
// second finding.

import { parentPath, type FindingSink } from '../report/findings.js';
import { isRecord } from '../shared/raw.js';
import type { CanonicalParam, PreloadSpec } from './types.js';

/**
 * Checks `route.preload` against the route's parameters and returns its canonical form.
 * `enabled: false` means the same as no preload, so it yields undefined. `path` is the
 * preload's own path (`main.routes.getPrice.preload`); VAL084, which is about a route without
 * a preload, is reported at the route.
 */
export function checkPreload(
  raw: unknown,
  path: string,
  params: CanonicalParam[],
  sink: FindingSink,
): PreloadSpec | undefined {
  const userParams = params.filter((param) => param.source.kind === 'user');
  if (raw === undefined) {
    // Every parameterless route gets it: it is info, and only the author knows how fresh the data must be.
    if (userParams.length === 0) {
      sink.add(
        'VAL084',
        parentPath(path, 'preload'),
        'route takes no parameters and could be preloaded',
        'if its data changes slowly, add preload: { enabled: true, ttl: <seconds> }',
      );
    }
    return undefined;
  }
  if (!isRecord(raw) || raw.enabled !== true) return undefined; // disabled, or Ajv: VAL080/VAL081
  reportRequiredParams(userParams, path, sink);
  const { ttl, description } = raw;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1) return undefined; // Ajv: VAL082
  // A description of the wrong type is only a warning (VAL083): the preload stands without it.
  return typeof description === 'string' ? { enabled: true, ttl, description } : { enabled: true, ttl };
}

/** A required parameter has no value until a caller supplies one, so nothing can be fetched ahead. */
function reportRequiredParams(userParams: CanonicalParam[], path: string, sink: FindingSink): void {
  const required = userParams
    .filter((param) => !param.optional && param.default === undefined)
    .map((param) => param.key);
  if (required.length === 0) return;
  sink.add(
    'VAL085',
    path,
    `preloaded route requires the parameter${required.length === 1 ? '' : 's'} ${required.join(', ')}`,
    'data can be preloaded only when it does not depend on what the caller passes: give these parameters a default or make them optional, or disable preload',
  );
}
