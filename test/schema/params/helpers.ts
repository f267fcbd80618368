import { FindingSink } from '../../../src/report/findings.js';
import { compileParameters, type ParamContext } from '../../../src/schema/params.js';
import type { CanonicalParam } from '../../../src/schema/types.js';

export const BASE = 'main.routes.r.parameters';

type Location = 'insert' | 'query' | 'body';

/** A raw `{{USER_PARAM}}` parameter as a schema author writes it. */
export function user(key: string, primitive: string, options: string[] = [], location: Location = 'query'): unknown {
  return { position: { key, value: '{{USER_PARAM}}', location }, z: { primitive, options } };
}

/** A raw parameter with a fixed value. */
export function fixed(
  key: string,
  value: string,
  primitive: string,
  options: string[] = [],
  location: Location = 'query',
): unknown {
  return { position: { key, value, location }, z: { primitive, options } };
}

export interface Compiled {
  params: CanonicalParam[];
  /** `CODE path` with the path relative to BASE, e.g. `VAL044 [0].z.primitive`. */
  findings: string[];
}

/** Compiles raw parameters of a POST route with path slot `id`, server key API_KEY and list evmChains. */
export function compile(raw: unknown, ctx: Partial<Omit<ParamContext, 'sink'>> = {}): Compiled {
  const sink = new FindingSink('t.mjs');
  const params = compileParameters(raw, BASE, {
    sink,
    serverKeys: new Set(['API_KEY']),
    declaredLists: new Set(['evmChains']),
    method: 'POST',
    pathSlots: new Set(['id']),
    ...ctx,
  });
  const findings = sink.findings.map(
    (f) => `${f.code} ${f.path?.startsWith(BASE) ? f.path.slice(BASE.length) : f.path}`,
  );
  return { params, findings };
}
