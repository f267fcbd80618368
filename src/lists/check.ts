// One list file from text to findings and, when it has no error, its typed list. The file is
// parsed, never imported: its syntax tree is scanned and `list` is read from it as literal
// data (decision R3), so a getter that would loop or throw is only ever a finding.

import type { Expression } from '../scan/ast.js';
import { FindingSink } from '../report/findings.js';
import { isRecord } from '../shared/raw.js';
import { parseWithLeadingData } from '../scan/leading-parse.js';
import { readSourceFile, type SourceText } from '../scan/source-file.js';
import { readLiteral, type LiteralData } from '../scan/literal.js';
import { checkListData } from './rules.js';
import { findListExport, scanListCode } from './scan.js';
import type { SharedList } from './types.js';

export interface ListCheck {
  file: string;
  /** The file's findings; the registry adds those that need the other lists (LST002, LST009–LST011). */
  sink: FindingSink;
  /** `meta.name` when it could be read, so that a broken list still holds its name. */
  name: string | null;
  /** Present only when the file itself has no error; whether it loads is the registry's call (LST002, LST009–LST011). */
  list: SharedList | null;
}

const LITERAL_HINT = 'write plain JSON-like values: objects, arrays, strings, numbers, booleans, null';

/** Past `maxFileBytes` (`limits.maxFileBytes`, default 2 MiB) the file is SEC207 and not read. */
export function checkListFile(file: string, maxFileBytes?: number): ListCheck {
  return checkListSource(file, readSourceFile(file, maxFileBytes, 'SEC207'));
}

/** A list file checked from what was read of it (readSourceFile): its list carries the hash of those bytes. */
export function checkListSource(file: string, { text, sha256, sink }: SourceText): ListCheck {
  if (sink) return { file, sink, name: null, list: null };
  const check = checkListText(file, text);
  return check.list ? { ...check, list: { ...check.list, sha256 } } : check;
}

export function checkListText(file: string, text: string): ListCheck {
  const sink = new FindingSink(file, text);
  // `list` is read from the text where it opens the file as plain data (scan/leading-data.ts).
  const { program, data: leading } = parseWithLeadingData(text, 'list', sink);
  if (!program) return { file, sink, name: null, list: null };
  const init = findListExport(program, sink);
  const named = scanListCode(program, sink);
  if (!init) return { file, sink, name: null, list: null };
  const data = leading?.data ?? readListLiteral(init, named, sink);
  sink.useLocator(data.locate);
  sink.ignoreBelow(data.opaque);
  const list = checkListData(data.value, file, sink);
  return { file, sink, name: nameOf(data.value), list };
}

/**
 * Reads `list` as literal data; what is not is SEC206, at its position. A function, arrow or
 * template expression the scan already named (at the offsets in `named`) is not reported again.
 */
function readListLiteral(init: Expression, named: ReadonlySet<number>, sink: FindingSink): LiteralData {
  const scratch = new FindingSink(sink.file);
  const data = readLiteral(init, 'list', scratch, 'SEC206');
  for (const finding of scratch.findings) {
    const offset = finding.path === undefined ? undefined : data.locate(finding.path);
    if (offset === undefined || !named.has(offset))
      sink.addAt('SEC206', offset, finding.message, finding.hint, finding.path);
  }
  for (const path of data.nonFinite)
    sink.addAt('SEC206', data.locate(path), 'a number too large for JSON is not literal data', LITERAL_HINT, path);
  return data;
}

function nameOf(value: unknown): string | null {
  const meta = isRecord(value) ? value.meta : undefined;
  return isRecord(meta) && typeof meta.name === 'string' ? meta.name : null;
}
