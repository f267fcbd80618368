// Parsing a schema or list file around its leading data: where readLeadingData (leading-data.ts)
// could read `main` or `list` from the text, the rest of the file is parsed with the object cut to
// `{}`, offsets are mapped back into the file, and the parser must find the object exactly there.

import type { FindingSink } from '../report/findings.js';
import type { Expression, Program } from './ast.js';
import { readLeadingData, type LeadingData, type LeadingName } from './leading-data.js';
import { parseModule } from './parse.js';

export interface ParsedFile {
  program: Program | null;
  /** `main` or `list` as read from the text; null when it was read the ordinary way (from the tree). */
  data: LeadingData | null;
  /** The text the program's offsets are in: the file, or the file with the object cut to `{}`. */
  parsedText: string;
}

/**
 * Parses a file, its `main` or `list` read from the text where readLeadingData can (then the
 * sink's paths are located through it, and the data is returned with the program); otherwise
 * the whole text is parsed as usual and `data` is null, for the caller to read from the tree.
 */
export function parseWithLeadingData(text: string, name: LeadingName, sink: FindingSink): ParsedFile {
  const data = readLeadingData(text, name);
  if (data) {
    const { start, end } = data;
    const parsedText = withoutObject(text, start, end);
    // Offsets past the `{}` lie `end - start - 2` further on in the file. The object is valid
    // data, so a syntax error of the parsed text is one of the file's, at the offset mapped back.
    sink.useParsedOffsets((offset) => (offset >= start + 2 ? offset + end - start - 2 : offset));
    const program = parseModule(parsedText, sink);
    if (!program) return { program, data: null, parsedText };
    if (initialises(program.body[0], name, start, start + 2)) {
      sink.useLocator(data.data.locate);
      return { program, data, parsedText };
    }
    sink.useParsedOffsets(null);
  }
  return { program: parseModule(text, sink), data: null, parsedText: text };
}

/** Whether `statement` is `export const <name> = ` with an object at exactly `start` to `end` as its one initialiser. */
function initialises(
  statement: Program['body'][number] | undefined,
  name: LeadingName,
  start: number,
  end: number,
): boolean {
  if (statement?.type !== 'ExportNamedDeclaration' || statement.declaration?.type !== 'VariableDeclaration')
    return false;
  if (statement.declaration.declarations.length !== 1) return false;
  const [first] = statement.declaration.declarations;
  const init = first?.init as (Expression & { start?: number; end?: number }) | null | undefined;
  return (
    statement.declaration.kind === 'const' &&
    first?.id.type === 'Identifier' &&
    first.id.name === name &&
    init?.type === 'ObjectExpression' &&
    init.start === start &&
    init.end === end
  );
}

/** The text with the object between `start` and `end` made `{}`. */
export function withoutObject(text: string, start: number, end: number): string {
  return `${text.slice(0, start)}{}${text.slice(end)}`;
}
