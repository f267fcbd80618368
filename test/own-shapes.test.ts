// flowguard's own shapes are compiled into standalone validators by scripts/generate.ts, which
// does not check them against the 2020-12 meta-schema; this is where they are checked.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { GROUP_ENTRY_SHAPE, GROUPS_FILE_SHAPE } from '../src/groups/shape.js';
import { CONFIG_SHAPE } from '../src/config/config-shape.js';
import { LIST_SHAPE } from '../src/lists/list-shape.js';
import { MAIN_SHAPE } from '../src/schema/main-shape.js';

describe('flowguard’s own JSON Schemas', () => {
  it.each([
    ['the shape of main', MAIN_SHAPE],
    ['the shape of .flowmcp/config.json', CONFIG_SHAPE],
    ['the shape of a shared list', LIST_SHAPE],
    ['the shape of .flowmcp/groups.json', GROUPS_FILE_SHAPE],
    ['the shape of one group', GROUP_ENTRY_SHAPE],
  ])('%s is valid JSON Schema 2020-12', (_name, shape) => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(shape), JSON.stringify(ajv.errors)).toBe(true);
  });
});
