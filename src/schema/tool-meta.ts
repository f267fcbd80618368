// 4.x tool `meta` (SPEC-NOTES-v3-v4 §2): six hints for MCP clients. The shape check reported a
// malformed block (VAL038, an authoring finding); such a block is left out, never half read.

import { isRecord } from '../shared/raw.js';
import type { ToolMeta } from './types.js';

/** The canonical meta of a `meta` block whose six fields all have their type, else undefined. */
export function readToolMeta(raw: unknown): ToolMeta | undefined {
  if (!isRecord(raw)) return undefined;
  const { isReadOnly, isDestructive, isConcurrencySafe, searchHint, aliases, alwaysLoad } = raw;
  if (
    typeof isReadOnly !== 'boolean' ||
    typeof isDestructive !== 'boolean' ||
    typeof isConcurrencySafe !== 'boolean' ||
    typeof alwaysLoad !== 'boolean'
  )
    return undefined;
  if (
    typeof searchHint !== 'string' ||
    searchHint === '' ||
    !Array.isArray(aliases) ||
    !aliases.every((alias) => typeof alias === 'string')
  )
    return undefined;
  return {
    readOnly: isReadOnly,
    destructive: isDestructive,
    concurrencySafe: isConcurrencySafe,
    searchHint,
    aliases: [...aliases],
    alwaysLoad,
  };
}
