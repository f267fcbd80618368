import type { FindingSink } from '../report/findings.js';
import type { Program } from './ast.js';
import { meriyah } from '../shared/deps.js';

/**
 * Parses a schema or list file as an ES module. A syntax error becomes a SEC016 finding at
 * its position; nothing is thrown and nothing of the file runs. Top-level await is legal in
 * modules; the scan reports it (SEC015) instead of the parser.
 */
export function parseModule(text: string, sink: FindingSink): Program | null {
  const parser = meriyah();
  try {
    // `start` and `end` (ast.ts) without meriyah's third form, a `range` array per node that
    // nothing reads: 3 to 6 % of the parse's CPU time on the 2.0.0 corpus's handler code, and garbage.
    return parser.parseModule(text, { ranges: { start: true, end: true } });
  } catch (error) {
    // Besides syntax errors the parser can only run out of stack, on absurdly deep nesting.
    const [at, problem] = parser.isParseError(error)
      ? [error.start, error.description]
      : [0, 'nested too deeply to read'];
    sink.addAt('SEC016', at, `syntax error: ${problem}`, 'fix the syntax; the file was not loaded');
    return null;
  }
}
