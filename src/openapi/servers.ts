// The `root` of the routes of an operation: OpenAPI 3's servers (operation, then path, then
// document level; an https one preferred, variables filled with their defaults) or Swagger 2.0's
// schemes, host and basePath. A root FlowMCP cannot use (relative, no host) is an error for every
// operation under it; an http-only server is written as https with a warning, since FlowMCP roots
// are https by rule.

import { isRecord, type RawObject } from '../shared/raw.js';
import type { OpenApiDocument, Operation } from './document.js';

export type RootChoice = { root: string; warnings: string[] } | { error: string };

export function rootOf(document: OpenApiDocument, { operation, pathItem }: Operation): RootChoice {
  return document.isSwagger2
    ? swaggerRoot(document.raw, operation)
    : serversRoot(serversOf(operation) ?? serversOf(pathItem) ?? serversOf(document.raw) ?? [{ url: '/' }]);
}

function serversOf(holder: RawObject): RawObject[] | undefined {
  return Array.isArray(holder.servers) && holder.servers.length > 0 ? holder.servers.filter(isRecord) : undefined;
}

function serversRoot(servers: RawObject[]): RootChoice {
  const filled = servers.map(fillVariables);
  const usable =
    filled.find((server) => 'url' in server && server.url.startsWith('https://')) ??
    filled.find((server) => 'url' in server && /^https?:\/\//.test(server.url));
  if (!usable || !('url' in usable)) {
    const first = filled[0];
    return {
      error:
        first && 'error' in first
          ? first.error
          : `the server URL ${JSON.stringify(servers[0]?.url)} is not absolute; a FlowMCP root needs https://host`,
    };
  }
  return httpsRoot(usable.url);
}

function fillVariables(server: RawObject): { url: string } | { error: string } {
  const variables = isRecord(server.variables) ? server.variables : {};
  let missing = '';
  const url = String(server.url ?? '').replace(/\{([^}]*)\}/g, (_, name: string) => {
    const variable = variables[name];
    if (isRecord(variable) && typeof variable.default === 'string') return variable.default;
    missing ||= name;
    return '';
  });
  return missing ? { error: `server variable {${missing}} of ${JSON.stringify(server.url)} has no default` } : { url };
}

function swaggerRoot(raw: RawObject, operation: RawObject): RootChoice {
  if (typeof raw.host !== 'string' || raw.host === '')
    return { error: 'the document has no host; a FlowMCP root needs https://host' };
  const schemes = Array.isArray(operation.schemes)
    ? operation.schemes
    : Array.isArray(raw.schemes)
      ? raw.schemes
      : ['https'];
  const scheme = schemes.includes('https') ? 'https' : String(schemes[0]);
  const basePath = typeof raw.basePath === 'string' ? raw.basePath : '';
  return httpsRoot(`${scheme}://${raw.host}${basePath}`);
}

function httpsRoot(url: string): RootChoice {
  const warnings: string[] = [];
  let root = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  if (root.startsWith('http://')) {
    root = `https://${root.slice('http://'.length)}`;
    warnings.push(`the document's server is http only (${url}); written as ${root}`);
  }
  if (!root.startsWith('https://')) return { error: `the server URL ${JSON.stringify(url)} is not http(s)` };
  return { root, warnings };
}
