// One schema file read and checked. A file that cannot be read, or is too large to be read
// (SEC020), is a finding like any other; it never stops the rest.

import { checkSchemaText, type CheckOptions, type SchemaCheck } from '../schema/check.js';
import { readSourceFile } from '../scan/source-file.js';
import type { CheckCache } from './check-cache.js';
import { largeDefinitions } from './definition-size.js';

export interface FileCheckOptions extends CheckOptions {
  /** Largest schema file read, in bytes (`limits.maxFileBytes`); default 2 MiB. */
  maxFileBytes?: number;
}

/** A schema file's check, with the hash of what was checked. */
export interface FileCheck extends SchemaCheck {
  /**
   * SHA-256 (hex) of the bytes the text checked was read from (as `sha256sum` shows them).
   * Taken as the file was read, so that call records and a group's content record name the
   * version served. Absent when the file was not read.
   */
  sha256?: string;
}

export function checkSchemaFile(file: string, options: FileCheckOptions, cache?: CheckCache): FileCheck {
  // The size is checked before the cache: a lowered limit holds for files checked before.
  const { text, sha256, sink } = readSourceFile(file, options.maxFileBytes, 'SEC020');
  if (sink) return { file, findings: sink.findings, schema: null };
  const cached = cache?.lookup(file, text);
  if (cached) return { ...cached, sha256 };
  const check = checkSchemaText(file, text, options);
  if (check.schema) check.findings.push(...largeDefinitions(check.schema, text));
  cache?.store(file, text, check);
  return { ...check, sha256 };
}
