// Security schemes as FlowMCP key placements (decision R4: `{{KEY}}` in `main.headers` or in a
// parameter value, KEY listed in `requiredServerParams`):
// - apiKey in a header: `main.headers[name] = '{{KEY}}'`;
// - apiKey in the query: a query parameter `name` whose value is `{{KEY}}`;
// - http bearer: `Authorization: Bearer {{KEY}}`;
// - http basic: `Authorization: Basic {{KEY}}`, the key holding base64 of `user:password`
//   (flowguard puts key values in as they are: it has no way to encode two keys into one header).
// OAuth2, OpenID Connect, mutual TLS and cookie keys have no placement: an operation whose every
// alternative needs one of them is not expressible.

import { isRecord, type RawObject } from '../shared/raw.js';
import type { OpenApiDocument } from './document.js';

export interface KeyPlacement {
  /** The server parameter (environment name) the operator grants. */
  key: string;
  where: 'header' | 'query';
  /** Header or query parameter name. */
  name: string;
  /** The text sent, `{{KEY}}` standing for the key's value. */
  value: string;
  scheme: string;
  basic?: boolean;
}

export type SecurityChoice = { placements: KeyPlacement[] } | { unsupported: string };

/** The first alternative of the operation's security requirement that FlowMCP can place. */
export function securityOf(document: OpenApiDocument, operation: RawObject, namespace: string): SecurityChoice {
  const requirement = Array.isArray(operation.security)
    ? operation.security
    : Array.isArray(document.raw.security)
      ? document.raw.security
      : [];
  if (requirement.length === 0) return { placements: [] };
  const schemes = schemesOf(document);
  const reasons: string[] = [];
  for (const alternative of requirement) {
    if (!isRecord(alternative)) continue;
    const placements: KeyPlacement[] = [];
    let failed = '';
    for (const name of Object.keys(alternative)) {
      const placed = place(name, schemes[name], namespace);
      if (typeof placed === 'string') failed ||= placed;
      else placements.push(placed);
    }
    if (!failed) return { placements };
    reasons.push(failed);
  }
  return { unsupported: [...new Set(reasons)].join('; ') };
}

function schemesOf(document: OpenApiDocument): RawObject {
  const raw = document.isSwagger2
    ? document.raw.securityDefinitions
    : isRecord(document.raw.components)
      ? document.raw.components.securitySchemes
      : undefined;
  return isRecord(raw) ? raw : {};
}

function place(name: string, scheme: unknown, namespace: string): KeyPlacement | string {
  if (!isRecord(scheme)) return `security scheme '${name}' is not defined`;
  const key = keyName(namespace, name);
  const type = String(scheme.type);
  if (type === 'apiKey') {
    const paramName = typeof scheme.name === 'string' ? scheme.name : '';
    if (!paramName) return `apiKey scheme '${name}' has no name`;
    if (scheme.in === 'header') return { key, where: 'header', name: paramName, value: `{{${key}}}`, scheme: name };
    if (scheme.in === 'query') return { key, where: 'query', name: paramName, value: `{{${key}}}`, scheme: name };
    return `apiKey scheme '${name}' sends its key in a ${String(scheme.in)}, which FlowMCP cannot place`;
  }
  const httpScheme = type === 'basic' ? 'basic' : type === 'http' ? String(scheme.scheme).toLowerCase() : '';
  if (httpScheme === 'bearer')
    return { key, where: 'header', name: 'Authorization', value: `Bearer {{${key}}}`, scheme: name };
  if (httpScheme === 'basic')
    return { key, where: 'header', name: 'Authorization', value: `Basic {{${key}}}`, scheme: name, basic: true };
  if (type === 'oauth2' || type === 'openIdConnect')
    return `${type} scheme '${name}' needs a token flow, which a FlowMCP schema cannot express`;
  return `${type}${httpScheme ? ` ${httpScheme}` : ''} scheme '${name}' cannot be expressed`;
}

/** `NYTIMES_API_KEY` from namespace `nytimes` and scheme `api-key`: UPPER_SNAKE as `requiredServerParams` asks. */
function keyName(namespace: string, scheme: string): string {
  const words = scheme
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const prefix = namespace.toUpperCase();
  return words.startsWith(prefix) ? words : `${prefix}_${words || 'KEY'}`;
}
