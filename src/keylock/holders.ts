// Who would receive each key now: every schema file of the catalog that declares a key the
// operator gave a value for its namespace, with the namespace it claims and the origins its
// reach binds the key to (the root's origin, and any origin its own text places the key in).
// And, once the lock has judged them, the tools of the files a key is held back from.

import { relative } from 'node:path';
import { compareStrings } from '../shared/sorted-json.js';
import type { CurrentHolder } from './judge.js';

/** What the holdings read of a tool: its schema, and where its reach binds each key. */
export interface HoldingTool {
  schema: { file: string; namespace: string; requiredServerParams: readonly string[] };
  reach: { boundOrigins(key: string): string[] };
  missingKeys: readonly string[];
}

/**
 * By key, the schema files that would receive it, in path order. `hasValue` says whether a key
 * has a value for a namespace (the operator's grants); a key without one goes nowhere.
 */
export function currentHoldings(
  tools: readonly HoldingTool[],
  projectDir: string,
  hasValue: (key: string, namespace: string) => boolean,
): Map<string, CurrentHolder[]> {
  const holdings = new Map<string, CurrentHolder[]>();
  const seen = new Set<string>();
  for (const tool of tools) {
    const { file: path, namespace, requiredServerParams } = tool.schema;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const key of requiredServerParams) {
      if (!hasValue(key, namespace)) continue;
      const origins = [...new Set(tool.reach.boundOrigins(key))].sort(compareStrings);
      holdings.set(key, [
        ...(holdings.get(key) ?? []),
        { path, file: lockedPath(projectDir, path), namespace, origins },
      ]);
    }
  }
  for (const holders of holdings.values()) holders.sort((a, b) => compareStrings(a.file, b.file));
  return holdings;
}

/**
 * Hides the tools of every file a key is held back from: the key counts as missing for each of
 * them (any route may use a declared key, through its handlers), so they are neither listed nor
 * callable, and nothing sends the key for them.
 */
export function holdBack(tools: readonly HoldingTool[], heldKeys: (path: string) => readonly string[]): void {
  for (const tool of tools) {
    const held = heldKeys(tool.schema.file).filter((key) => !tool.missingKeys.includes(key));
    if (held.length > 0) tool.missingKeys = [...tool.missingKeys, ...held];
  }
}

/**
 * A schema file as the lock names it: relative to the project folder the lock sits in, `/`-separated,
 * so that a command given a narrower `--schemas` (one folder, one file) names a file as `serve` does.
 */
function lockedPath(projectDir: string, file: string): string {
  return relative(projectDir, file).split('\\').join('/');
}
