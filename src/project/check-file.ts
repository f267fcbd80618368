// One schema file read and checked. A file that cannot be read, or is too large to be read
// (SEC020), is a finding like any other; it never stops the rest.

import { checkSchemaText, type CheckOptions, type SchemaCheck } from '../schema/check.js';
import { readSourceFile } from '../scan/source-file.js';
import type { CheckCache } from './check-cache.js';

export interface FileCheckOptions extends CheckOptions {
  /** Largest schema file read, in bytes (`limits.maxFileBytes`); default 2 MiB. */
  maxFileBytes?: number;
}

export function checkSchemaFile(file: string, options: FileCheckOptions, cache?: CheckCache): SchemaCheck {
  // The size is checked before the cache: a lowered limit holds for files checked before.
  const { text, sink } = readSourceFile(file, options.maxFileBytes, 'SEC020');
  if (sink) return { file, findings: sink.findings, schema: null };
  const cached = cache?.lookup(file, text);
  if (cached) return cached;
  const check = checkSchemaText(file, text, options);
  cache?.store(file, text, check);
  return check;
}
