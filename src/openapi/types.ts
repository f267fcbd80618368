// What `flowguard import openapi` reports. The findings are about the OpenAPI document, not about
// a schema file, so they are a report of their own with plain kinds rather than catalog codes:
// the catalog's code table names faults of schema files, and an operation that cannot be expressed
// is no fault of any file.

export type ImportFindingKind =
  /** The document, or a part of it every operation needs (its servers), cannot be used. */
  | 'document'
  /** An HTTP method FlowMCP has no route for (PATCH, HEAD, OPTIONS, TRACE). */
  | 'method'
  /** A security requirement with no key placement FlowMCP can express (OAuth2, OpenID Connect, cookies). */
  | 'security'
  /** A parameter that cannot be sent (header, cookie, deep object) or a constraint that was dropped. */
  | 'parameter'
  /** A request body that is not a JSON object of properties (multipart, form, XML, an array). */
  | 'body'
  /** The project's checker rejected what was generated for the operation. */
  | 'check'
  /** Something the author should look at in a route that was written (an invented test value, a changed scheme). */
  | 'note'
  /** Past the bound on routes per import. */
  | 'limit';

export interface ImportFinding {
  kind: ImportFindingKind;
  /** `error`: the operation did not become a route. `warning`: it did, with what the message says. `info`: worth knowing. */
  severity: 'error' | 'warning' | 'info';
  /** `GET /pets/{petId}`; absent for findings about the whole document. */
  operation?: string;
  message: string;
}

export interface WrittenRoute {
  name: string;
  /** `GET /pets/{petId}` as the document writes it. */
  operation: string;
  operationId?: string;
}

export interface WrittenFile {
  /** The path written (under --out). */
  file: string;
  routes: WrittenRoute[];
  /** Warnings and infos the project's checker reported for the file (no errors: files with errors are not written). */
  check: string[];
}

export interface ImportReport {
  document: { file: string; title: string; format: string };
  namespace: string;
  summary: { operations: number; routes: number; skipped: number; excluded: number; files: number; warnings: number };
  files: WrittenFile[];
  findings: ImportFinding[];
  /** Operations left out by --include. */
  excluded: string[];
}
