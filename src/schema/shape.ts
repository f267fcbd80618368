// The shape of `main` (main-shape.ts), checked by its generated validator through the one
// mapper of document shapes (src/shapes/): every error becomes a finding with the code its
// subschema carries. Semantic rules live elsewhere and only look at values whose shape passed.

import type { FindingSink } from '../report/findings.js';
import { checkShape as checkDocument } from '../shapes/problems.js';
import { validate as validateMain } from './main-shape.generated.js';

/** Checks the shape of `main`; every problem becomes one finding with its code and path. */
export function checkShape(main: unknown, sink: FindingSink): boolean {
  return checkDocument(validateMain, main, { root: 'main', fallback: 'VAL002' }, sink).length === 0;
}
