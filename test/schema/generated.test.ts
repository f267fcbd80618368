// Generated code is checked in (scripts/generate.ts says why); this keeps it in step with its source.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN_SHAPE_VALIDATOR, mainShapeValidatorSource } from '../../scripts/generate.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('generated code', () => {
  it('main-shape.generated.ts is the validator of the current MAIN_SHAPE (after a change: npm run generate)', () => {
    expect(readFileSync(root + MAIN_SHAPE_VALIDATOR, 'utf8')).toBe(mainShapeValidatorSource());
  });
});
