// One schema file read and checked. A file that cannot be read, or is too large to be read
// (SEC020), is a finding like any other; it never stops the rest.

import { createHash } from 'node:crypto';
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
   * SHA-256 (hex) of the text checked, as UTF-8: the file's bytes, for a file in UTF-8 (as
   * `sha256sum` shows them). Taken once here, so that call records name the version served.
   * Absent when the file was not read.
   */
  sha256?: string;
}

export function checkSchemaFile(file: string, options: FileCheckOptions, cache?: CheckCache): FileCheck {
  // The size is checked before the cache: a lowered limit holds for files checked before.
  const { text, sink } = readSourceFile(file, options.maxFileBytes, 'SEC020');
  if (sink) return { file, findings: sink.findings, schema: null };
  const sha256 = createHash('sha256').update(text).digest('hex');
  const cached = cache?.lookup(file, text);
  if (cached) return { ...cached, sha256 };
  const check = checkSchemaText(file, text, options);
  if (check.schema) check.findings.push(...largeDefinitions(check.schema, text));
  cache?.store(file, text, check);
  return { ...check, sha256 };
}
