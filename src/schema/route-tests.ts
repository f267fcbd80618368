// Checks a route's `tests` against its compiled parameters (SPEC-NOTES §13). The Ajv shape
// check reported a missing or empty `tests` (TST001) and tests without a string `_description`
// (TST002); those tests are skipped here, not reported again.

import { childPath, type FindingSink } from '../report/findings.js';
import { isRecord } from '../shared/raw.js';
import { violation } from './z-values.js';
import type { CanonicalParam, RouteTest } from './types.js';

/** Checks the raw `tests` of a route (at finding path `path`, e.g. `main.routes.getPrice.tests`) and returns the well-formed ones. */
export function checkRouteTests(raw: unknown, path: string, params: CanonicalParam[], sink: FindingSink): RouteTest[] {
  if (!Array.isArray(raw)) return [];
  const userParams = new Map<string, CanonicalParam>();
  for (const param of params) {
    if (param.source.kind === 'user' && !userParams.has(param.key)) userParams.set(param.key, param);
  }
  const tests: RouteTest[] = [];
  raw.forEach((item, index) => {
    if (!isRecord(item) || typeof item._description !== 'string') return;
    const test = item as RouteTest;
    checkTest(test, childPath(path, index), userParams, sink);
    tests.push(test);
  });
  checkCoverage(tests, path, userParams, sink);
  return tests;
}

function checkTest(
  test: RouteTest,
  path: string,
  userParams: ReadonlyMap<string, CanonicalParam>,
  sink: FindingSink,
): void {
  for (const param of userParams.values()) {
    if (isRequired(param) && !Object.hasOwn(test, param.key)) {
      sink.add('TST003', path, `test lacks the required parameter \`${param.key}\``, `add ${param.key}: <value>`);
    }
  }
  for (const [key, value] of Object.entries(test)) {
    if (key === '_description') continue;
    const valuePath = childPath(path, key);
    const serialisable = checkJson(value, valuePath, sink);
    const param = userParams.get(key);
    if (!param) {
      sink.add(
        'TST006',
        valuePath,
        `\`${key}\` is not a user parameter of this route`,
        'tests name only _description and {{USER_PARAM}} keys',
      );
      continue;
    }
    // A value that is not JSON was reported as such; judging it against z would say it twice.
    const why = serialisable ? violation(param.type, value) : null;
    if (why)
      sink.add(
        'TST004',
        valuePath,
        `\`${key}\` ${JSON.stringify(value)} ${why}`,
        'write a value the parameter accepts, as the caller would send it: numbers and booleans without quotes',
      );
  }
}

/** A required user parameter: neither optional nor defaulted (a default implies optional). */
function isRequired(param: CanonicalParam): boolean {
  return !param.optional && param.default === undefined;
}

/** Reports every part of `value` that JSON cannot carry (TST005); true when there is none. */
function checkJson(value: unknown, path: string, sink: FindingSink): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return true;
    sink.add('TST005', path, `${value} is not a finite number and does not survive JSON`, 'write a finite number');
    return false;
  }
  let clean = true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1)
      clean = checkJson(value[index], childPath(path, index), sink) && clean;
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) clean = checkJson(item, childPath(path, key), sink) && clean;
  } else {
    sink.add(
      'TST005',
      path,
      `a value of type ${typeof value} does not survive JSON`,
      'write plain data: text, numbers, booleans, null, arrays and objects',
    );
    return false;
  }
  return clean;
}

/** Across all tests: enum parameters that never vary (TST007), optional parameters never shown (TST008). */
function checkCoverage(
  tests: readonly RouteTest[],
  path: string,
  userParams: ReadonlyMap<string, CanonicalParam>,
  sink: FindingSink,
): void {
  if (tests.length === 0) return;
  for (const param of userParams.values()) {
    const shown = tests.filter((test) => Object.hasOwn(test, param.key)).map((test) => test[param.key]);
    if (shown.length === 0 && !isRequired(param)) {
      sink.add('TST008', path, `no test shows the optional parameter \`${param.key}\``, 'add a test that sets it');
    } else if (shown.length >= 2 && canVary(param) && allSameScalar(shown)) {
      sink.add(
        'TST007',
        path,
        `every test passes the same \`${param.key}\` (${JSON.stringify(shown[0])})`,
        'vary it across tests to cover more than one enum value',
      );
    }
  }
}

/** An enum parameter with more than one possible value. */
function canVary(param: CanonicalParam): boolean {
  return param.type.kind === 'enum' && (!param.type.listsResolved || param.type.values.length > 1);
}

/** Scalars compare by text (`5` and `'5'` are one numeric enum value); anything else never matches. */
function allSameScalar(values: readonly unknown[]): boolean {
  const first = scalarText(values[0]);
  return first !== undefined && values.every((value) => scalarText(value) === first);
}

function scalarText(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}
