// `flowguard import openapi`: an OpenAPI or Swagger document to FlowMCP schema files. Every
// operation of the document becomes a route of a file that validates, or a finding that says why
// it could not (RouteConversion); those --include leaves out are listed as excluded.

import { basename } from 'node:path';
import { isRecord } from '../shared/raw.js';
import { DocumentBoundError, operationsOf, readDocument, type Operation } from './document.js';
import { isNamespace, namespaceFromTitle } from './names.js';
import { convertOperation, type RouteDraft } from './route.js';
import { planFiles, type PlannedFile } from './schema-files.js';
import type { ImportFinding, ImportReport } from './types.js';
import { UsageError } from '../errors/flowguard-error.js';

/** More operations than this in one import are reported instead of converted. */
const MAX_IMPORTED_ROUTES = 2000;

export interface ImportOptions {
  namespace?: string;
  /** Matched against operationId, path, `METHOD path` and tags (see matcherOf). */
  include?: string;
}

export interface ImportResult {
  report: Omit<ImportReport, 'files'>;
  files: PlannedFile[];
}

export async function importOpenApi(source: string, options: ImportOptions = {}): Promise<ImportResult> {
  const include = options.include === undefined ? undefined : matcherOf(options.include);
  if (options.namespace !== undefined && !isNamespace(options.namespace))
    throw new UsageError(`--namespace ${options.namespace}: a namespace is lowercase letters only (a-z)`);
  let document: Awaited<ReturnType<typeof readDocument>>;
  try {
    document = await readDocument(source);
  } catch (error) {
    if (error instanceof DocumentBoundError) return refusedDocument(source, error, options.namespace);
    throw error;
  }
  const info = isRecord(document.raw.info) ? document.raw.info : {};
  const title = typeof info.title === 'string' ? info.title : basename(source);
  const namespace = options.namespace ?? namespaceFromTitle(title);

  const findings: ImportFinding[] = [];
  if (document.invalid)
    findings.push({
      kind: 'document',
      severity: 'warning',
      message: `the document does not validate against its specification: ${document.invalid}`,
    });
  const operations = operationsOf(document);
  const excluded: string[] = [];
  const drafts: RouteDraft[] = [];
  for (const op of operations) {
    if (include && !include(op)) {
      excluded.push(op.label);
      continue;
    }
    if (drafts.length >= MAX_IMPORTED_ROUTES) {
      findings.push({
        kind: 'limit',
        severity: 'error',
        operation: op.label,
        message: `past ${MAX_IMPORTED_ROUTES} routes in one import; narrow it with --include`,
      });
      continue;
    }
    const conversion = convertOperation(document, op, namespace);
    for (const finding of conversion.findings) {
      if (finding.operation || !findings.some((known) => !known.operation && known.message === finding.message))
        findings.push(finding);
    }
    if (conversion.draft) drafts.push(conversion.draft);
  }
  const files = planFiles(document, drafts, namespace, source, findings);
  const skipped = new Set(
    findings.filter((finding) => finding.severity === 'error' && finding.operation).map((finding) => finding.operation),
  );
  const routes = files.reduce((sum, file) => sum + file.routes.length, 0);
  return {
    files,
    report: {
      document: { file: source, title, format: document.format },
      namespace,
      summary: {
        operations: operations.length,
        routes,
        skipped: skipped.size,
        excluded: excluded.length,
        files: files.length,
        warnings: findings.filter((finding) => finding.severity === 'warning').length,
      },
      findings,
      excluded,
    },
  };
}

/** The report of a document past a bound: one `document` error, no files. */
function refusedDocument(source: string, error: DocumentBoundError, namespace: string | undefined): ImportResult {
  const title = error.title || basename(source);
  return {
    files: [],
    report: {
      document: { file: source, title, format: error.format },
      namespace: namespace ?? namespaceFromTitle(title),
      summary: { operations: 0, routes: 0, skipped: 0, excluded: 0, files: 0, warnings: 0 },
      findings: [{ kind: 'document', severity: 'error', message: `${error.message}; nothing was written` }],
      excluded: [],
    },
  };
}

/**
 * `--include`: `/regex/flags` is a regular expression, anything else a glob (`*` any run of
 * characters, `?` one character, case-insensitive, the whole text). An operation is included
 * when the pattern matches its operationId, its path, `METHOD path` or one of its tags.
 */
function matcherOf(pattern: string): (op: Operation) => boolean {
  const regex = regexOf(pattern);
  return (op) => {
    const tags = Array.isArray(op.operation.tags) ? op.operation.tags.map(String) : [];
    const texts = [
      op.path,
      op.label,
      ...tags,
      ...(typeof op.operation.operationId === 'string' ? [op.operation.operationId] : []),
    ];
    return texts.some((text) => regex.test(text));
  };
}

function regexOf(pattern: string): RegExp {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (literal) {
    try {
      return new RegExp(literal[1]!, literal[2]!.replace('g', ''));
    } catch (error) {
      throw new UsageError(`--include ${pattern}: ${(error as Error).message}`);
    }
  }
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}
