// Validation of many schema files in one process: read, check, collect. A file that cannot
// be read is a finding like any other; it never stops the rest.

import { readFileSync } from 'node:fs';
import { unreadableFile } from '../findings.js';
import { checkSchemaText, type CheckOptions, type SchemaCheck } from '../schema/check.js';
import type { CheckCache } from './check-cache.js';

export function checkSchemaFile(file: string, options: CheckOptions, cache?: CheckCache): SchemaCheck {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { file, findings: unreadableFile(file, error).findings, schema: null };
  }
  const cached = cache?.lookup(file, text);
  if (cached) return cached;
  const check = checkSchemaText(file, text, options);
  cache?.store(file, text, check);
  return check;
}

export function checkSchemaFiles(files: readonly string[], options: CheckOptions, onProgress?: (done: number) => void): SchemaCheck[] {
  return files.map((file, index) => {
    const result = checkSchemaFile(file, options);
    onProgress?.(index + 1);
    return result;
  });
}
