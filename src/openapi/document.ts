// Reads an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML) with @readme/openapi-parser and
// lists its operations. References are resolved inside the one file only, under a bound on what
// they expand to (references.ts): a document that points at other files or URLs cannot make the
// import read them (the parser's external resolution is off). Circular references stay as `$ref`
// objects, which the converters treat as "any".

import { statSync } from 'node:fs';
import type { validate } from '@readme/openapi-parser';
import { isRecord, type RawObject } from '../shared/raw.js';
import { ExpansionError, MissingReferenceError, resolveReferences } from './references.js';
import { FlowguardError } from '../errors/flowguard-error.js';

type ParserInput = Parameters<typeof validate>[0];

/** A document larger than this is refused before it is parsed (decision R13). */
const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface OpenApiDocument {
  raw: RawObject;
  /** `swagger 2.0`, `openapi 3.0.3`, ... */
  format: string;
  isSwagger2: boolean;
  /** What the parser's validation found wrong, if anything: the import goes on, the report says it. */
  invalid?: string;
}

export interface Operation {
  /** Upper-case method as written in the document. */
  method: string;
  path: string;
  /** `GET /pets/{petId}` */
  label: string;
  operation: RawObject;
  pathItem: RawObject;
}

/** The document cannot be read as an OpenAPI document at all. */
class DocumentError extends FlowguardError {
  constructor(message: string) {
    super('ERR006', message);
  }
}

/** The document reads, but is past a bound of the import: the import reports it and writes nothing. */
export class DocumentBoundError extends FlowguardError {
  constructor(
    message: string,
    readonly format: string,
    readonly title: string,
  ) {
    super('ERR007', message);
  }
}

/** A JSON media type of an OpenAPI 3 `content` map: `application/json`, `application/<x>+json`, with or without parameters. */
export const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]*\+)?json\b/i;

/** Swagger 2.0's `consumes` or `produces` of an operation: its own, else the document's, else JSON. */
export function swaggerMediaTypes(
  document: OpenApiDocument,
  operation: RawObject,
  field: 'consumes' | 'produces',
): string[] {
  const declared = Array.isArray(operation[field])
    ? operation[field]
    : Array.isArray(document.raw[field])
      ? document.raw[field]
      : ['application/json'];
  return declared.map(String);
}

export async function readDocument(file: string): Promise<OpenApiDocument> {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new DocumentError(`no such file: ${file}`);
  }
  if (size > MAX_DOCUMENT_BYTES)
    throw new DocumentError(`${file} is ${size} bytes, over the bound of ${MAX_DOCUMENT_BYTES}`);
  // The parser (and the schema validators it brings) loads only for an import, not with every command.
  const { parse, validate, compileErrors } = await import('@readme/openapi-parser');
  const options = { resolve: { external: false }, dereference: { circular: 'ignore' as const } };
  let parsed: unknown;
  try {
    parsed = await parse(file, options);
  } catch (error) {
    throw new DocumentError(`${file} cannot be read as JSON or YAML: ${(error as Error).message}`);
  }
  if (!isRecord(parsed) || !(typeof parsed.swagger === 'string' || typeof parsed.openapi === 'string')) {
    throw new DocumentError(`${file} is not an OpenAPI or Swagger document (no \`openapi\` or \`swagger\` field)`);
  }
  const isSwagger2 = typeof parsed.swagger === 'string';
  const format = isSwagger2 ? `swagger ${String(parsed.swagger)}` : `openapi ${String(parsed.openapi)}`;
  if (isSwagger2 ? parsed.swagger !== '2.0' : !/^3\.[01]\./.test(String(parsed.openapi))) {
    throw new DocumentError(`${file} is ${format}; Swagger 2.0 and OpenAPI 3.0 and 3.1 are supported`);
  }
  let raw: unknown;
  try {
    raw = resolveReferences(parsed);
  } catch (error) {
    if (error instanceof MissingReferenceError)
      throw new DocumentError(`${file}: a reference cannot be resolved: ${error.message}`);
    if (error instanceof ExpansionError)
      throw new DocumentBoundError(
        error.message,
        format,
        isRecord(parsed.info) && typeof parsed.info.title === 'string' ? parsed.info.title : '',
      );
    throw error;
  }
  // Validation works on its own copy of the resolved tree (it dereferences in place), so that it
  // walks no more than the bound let through; what is left to resolve is only circular.
  const result = await validate(structuredClone(raw) as ParserInput, options).catch((error: Error) => ({
    valid: false as const,
    errors: [{ message: error.message }],
    warnings: [],
  }));
  const document: OpenApiDocument = { raw: raw as RawObject, format, isSwagger2 };
  if (!result.valid) document.invalid = firstLines(compileErrors(result as Parameters<typeof compileErrors>[0]), 5);
  return document;
}

function firstLines(text: string, count: number): string {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(0, count).join('; ') + (lines.length > count ? `; ... (${lines.length - count} more lines)` : '');
}

/** Every operation of the document, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const paths = isRecord(document.raw.paths) ? document.raw.paths : {};
  const operations: Operation[] = [];
  for (const [path, pathItem] of Object.entries(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (!isRecord(operation)) continue;
      const upper = method.toUpperCase();
      operations.push({ method: upper, path, label: `${upper} ${path}`, operation, pathItem });
    }
  }
  return operations;
}
