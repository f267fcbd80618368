// One operation as one FlowMCP route, or as the reasons it cannot be one. A route is written only
// when everything the API needs from a caller can be expressed; what is left out of a route that
// is written is a warning in the report.

import { isRecord, type RawObject } from '../shared/raw.js';
import { JSON_MEDIA_TYPE, swaggerMediaTypes, type OpenApiDocument, type Operation } from './document.js';
import { outputSchemaOf } from './output-schema.js';
import { convertParameters, describe, type FlowParameter } from './parameters.js';
import { securityOf, type KeyPlacement } from './security.js';
import { rootOf } from './servers.js';
import type { ImportFinding } from './types.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE']);

export interface RouteDraft {
  operation: Operation;
  root: string;
  keys: KeyPlacement[];
  route: {
    method: string;
    path: string;
    description: string;
    parameters: FlowParameter[];
    output?: { mimeType: 'application/json'; schema: RawObject };
    tests: Array<Record<string, unknown>>;
  };
}

export interface RouteConversion {
  draft?: RouteDraft;
  findings: ImportFinding[];
}

export function convertOperation(document: OpenApiDocument, op: Operation, namespace: string): RouteConversion {
  const findings: ImportFinding[] = [];
  const report = (severity: ImportFinding['severity'], kind: ImportFinding['kind'], message: string) =>
    findings.push({ kind, severity, operation: op.label, message });
  const failed = () => findings.some((finding) => finding.severity === 'error');

  if (!METHODS.has(op.method))
    report('error', 'method', `${op.method} has no FlowMCP route (GET, POST, PUT and DELETE only)`);
  const root = rootOf(document, op);
  if ('error' in root) report('error', 'document', root.error);
  // About the server, not the operation: said once for the document (import.ts drops repeats).
  else for (const warning of root.warnings) findings.push({ kind: 'note', severity: 'warning', message: warning });
  const security = securityOf(document, op.operation, namespace);
  if ('unsupported' in security) report('error', 'security', security.unsupported);
  if (failed() || 'error' in root || 'unsupported' in security) return { findings };

  for (const key of security.placements) {
    if (key.basic)
      report(
        'info',
        'note',
        `basic authentication: the key ${key.key} holds base64 of user:password (e.g. \`printf %s user:password | base64\`)`,
      );
  }
  const { parameters, pathKeys, test } = convertParameters(document, op, security.placements, report);
  for (const key of security.placements.filter((placement) => placement.where === 'query')) {
    parameters.push({
      position: { key: key.name, value: key.value, location: 'query' },
      z: { primitive: 'string()', options: [] },
    });
  }
  const path = op.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const key = pathKeys.get(name);
    if (!key) report('error', 'parameter', `path placeholder ${whole} has no path parameter`);
    return key ? `{{${key}}}` : whole;
  });
  if (failed()) return { findings };

  const description = describe(op.operation, op.label);
  const route: RouteDraft['route'] = {
    method: op.method,
    path,
    description,
    parameters,
    tests: [{ _description: testDescription(op), ...test }],
  };
  const response = responseSchema(document, op.operation);
  const output = response && outputSchemaOf(response);
  if (output) route.output = { mimeType: 'application/json', schema: output };
  return { draft: { operation: op, root: root.root, keys: security.placements, route }, findings };
}

function testDescription(op: Operation): string {
  const summary =
    typeof op.operation.summary === 'string' && op.operation.summary.trim() ? op.operation.summary.trim() : op.label;
  return `${summary.replace(/\s+/g, ' ').slice(0, 120)} (values from the OpenAPI document)`;
}

/** The JSON schema of the first 2xx answer, if the document gives one. */
function responseSchema(document: OpenApiDocument, operation: RawObject): RawObject | undefined {
  const responses = isRecord(operation.responses) ? operation.responses : {};
  const code = Object.keys(responses)
    .filter((status) => /^2(?:\d\d|XX)$/i.test(status))
    .sort()[0];
  const response = code ? responses[code] : undefined;
  if (!isRecord(response)) return undefined;
  if (document.isSwagger2) {
    return swaggerMediaTypes(document, operation, 'produces').some((type) => /json/i.test(type)) &&
      isRecord(response.schema)
      ? response.schema
      : undefined;
  }
  const content = isRecord(response.content) ? response.content : {};
  const jsonType = Object.keys(content).find((type) => JSON_MEDIA_TYPE.test(type));
  const media = jsonType ? content[jsonType] : undefined;
  return isRecord(media) && isRecord(media.schema) ? media.schema : undefined;
}
