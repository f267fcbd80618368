import type { Program } from 'acorn';
import { acorn } from '../deps.js';
import type { FindingSink } from '../findings.js';

/**
 * Parses a schema or list file as an ES module. A syntax error becomes a SEC016 finding at
 * its position; nothing is thrown and nothing of the file runs.
 */
export function parseModule(text: string, sink: FindingSink): Program | null {
  try {
    return acorn().parse(text, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      // Top-level await is legal in modules; the scan reports it (SEC015) instead of the parser.
      allowAwaitOutsideFunction: true,
      allowHashBang: false,
    });
  } catch (error) {
    const { message, pos } = error as SyntaxError & { pos?: number };
    sink.addAt('SEC016', pos, `syntax error: ${message.replace(/ \(\d+:\d+\)$/, '')}`, 'fix the syntax; the file was not loaded');
    return null;
  }
}
