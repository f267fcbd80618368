// The shape of `main` (main-shape.ts), checked by its generated Ajv validator: every error
// becomes a finding with the code its subschema carries. Semantic rules live elsewhere and only
// look at values whose shape passed.

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { childPath, type Code, type FindingSink } from '../report/findings.js';
import type { Json } from './main-shape.js';
import { validate as validateShape } from './main-shape.generated.js';

/** The generated validator's signature: Ajv's, its errors verbose (they carry their schemas). */
const validateMain = validateShape as unknown as ValidateFunction;

const HINTS: Partial<Record<Code, string>> = {
  VAL003: 'remove the field or fix its spelling',
  VAL031: 'split the schema into two files',
  VAL038: 'meta has six fields: isReadOnly, isConcurrencySafe, isDestructive (booleans), searchHint (text), aliases (a list of names), alwaysLoad (boolean)',
  VAL032: 'use GET, POST, PUT or DELETE',
  VAL043: 'use insert, query or body; headers go into main.headers',
};

/** Checks the shape of `main`; every problem becomes one finding with its code and path. */
export function checkShape(main: unknown, sink: FindingSink): boolean {
  if (validateMain(main)) return true;
  for (const error of validateMain.errors ?? []) {
    // An allOf wrapper repeats what its failing branch already said.
    if (error.keyword === 'allOf') continue;
    const { code, path, message } = describeError(error, main);
    sink.add(code, path, message, HINTS[code]);
  }
  return false;
}

function describeError(error: ErrorObject, main: unknown): { code: Code; path: string; message: string } {
  const path = pointerToPath(error.instancePath, main);
  const parent = (error.parentSchema ?? {}) as Json;
  const parentCode = (parent['x-code'] as Code | undefined) ?? 'VAL002';
  const field = path.slice(path.lastIndexOf('.') + 1);
  switch (error.keyword) {
    case 'required': {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const properties = (parent.properties ?? {}) as Record<string, Json>;
      const code = (properties[missing]?.['x-code'] as Code | undefined) ?? parentCode;
      return { code, path: childPath(path, missing), message: `\`${missing}\` is required` };
    }
    case 'additionalProperties': {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      return { code: 'VAL003', path: childPath(path, extra), message: `unknown field \`${extra}\`` };
    }
    case 'enum':
      return { code: parentCode, path, message: `\`${field}\` must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` };
    default:
      return { code: parentCode, path, message: `\`${field}\` ${error.message ?? 'is invalid'}` };
  }
}

/** `/routes/get.price/parameters/0` → `main.routes["get.price"].parameters[0]`, walking the data to tell arrays apart. */
function pointerToPath(pointer: string, data: unknown): string {
  let path = 'main';
  let current: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      const index = Number(segment);
      path = childPath(path, index);
      current = current[index];
    } else {
      path = childPath(path, segment);
      current = current !== null && typeof current === 'object' ? (current as Json)[segment] : undefined;
    }
  }
  return path;
}
