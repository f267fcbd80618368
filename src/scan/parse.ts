import type { FindingSink } from '../findings.js';
import type { Program } from './ast.js';
import { meriyah } from '../deps.js';

/**
 * Parses a schema or list file as an ES module. A syntax error becomes a SEC016 finding at
 * its position; nothing is thrown and nothing of the file runs. Top-level await is legal in
 * modules; the scan reports it (SEC015) instead of the parser.
 */
export function parseModule(text: string, sink: FindingSink): Program | null {
  const parser = meriyah();
  try {
    return parser.parseModule(text, { ranges: true });
  } catch (error) {
    if (!parser.isParseError(error)) throw error;
    sink.addAt('SEC016', error.start, `syntax error: ${error.description}`, 'fix the syntax; the file was not loaded');
    return null;
  }
}
