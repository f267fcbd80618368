// `{id}` in a route path, the OpenAPI habit. The core fills only `{{id}}` and `:id`, so `{id}`
// is sent as literal text (`%7Bid%7D` once the URL is encoded) and the API answers for a thing
// named "{id}". Only a handler that rewrites the URL (preRequest, or executeRequest building its
// own request) can still fill it: without one the placeholder can never match, and the route is
// an error (VAL058); with one, or where the handlers cannot be read without running them, it is
// a warning (VAL098).

import { withSuggestion } from '../report/did-you-mean.js';
import type { FindingSink } from '../report/findings.js';
import type { CanonicalParam, HandlersInfo } from './types.js';

/** The single-brace names of one route's path, found while its path was compiled. */
export interface RouteBraces {
  route: string;
  /** Finding path of the route's `path`. */
  path: string;
  names: readonly string[];
  parameters: readonly CanonicalParam[];
}

export function reportSingleBraces(
  found: readonly RouteBraces[],
  handlers: HandlersInfo | null,
  sink: FindingSink,
): void {
  for (const { route, path, names, parameters } of found) {
    const rewritten = mayRewriteUrl(route, handlers);
    for (const name of names) {
      const fix = braceFix(name, parameters);
      if (rewritten)
        sink.add('VAL098', path, `{${name}} is sent as literal text unless a handler of this route replaces it`, fix);
      else
        sink.add(
          'VAL058',
          path,
          `{${name}} can never match: the core fills {{${name}}} and :${name}, and sends {${name}} as literal text`,
          fix,
        );
    }
  }
}

/** Whether a handler of the route may replace text in its URL; unknown hooks count as maybe. */
function mayRewriteUrl(route: string, handlers: HandlersInfo | null): boolean {
  if (!handlers) return false;
  if (!handlers.routes) return true;
  if (!Object.hasOwn(handlers.routes, route)) return false;
  const hooks = handlers.routes[route];
  return !hooks || hooks.preRequest || hooks.executeRequest;
}

/** What to write instead, given the parameters the route has. */
function braceFix(name: string, parameters: readonly CanonicalParam[]): string {
  const param = parameters.find((p) => p.key === name);
  if (param?.location === 'insert') return `write {{${name}}}; the insert parameter '${name}' fills it`;
  if (param)
    return `write {{${name}}} and give the parameter '${name}' location 'insert' (it is ${param.location} now)`;
  return withSuggestion(
    name,
    parameters.map((p) => p.key),
    `write {{${name}}} and add a parameter { key: '${name}', value: '{{USER_PARAM}}', location: 'insert' }`,
  ) as string;
}
