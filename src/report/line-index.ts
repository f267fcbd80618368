// Lines and columns of offsets in a text, for the positions of findings.

import type { SourceLocation } from './findings.js';

/**
 * Line starts of a text, computed on the first finding that needs one: parsing without
 * the parser's per-node line tracking (`loc`) is measurably faster, and most files have few findings.
 */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    // Nearly every file ends its lines with \n alone, which indexOf finds natively, several
    // times faster than looking at each character.
    if (!text.includes('\r') && !text.includes('\u2028') && !text.includes('\u2029')) {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    // The line terminators of ECMAScript: \n, \r, \r\n, U+2028, U+2029.
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i);
      if (c === 10 || c === 0x2028 || c === 0x2029 || (c === 13 && text.charCodeAt(i + 1) !== 10))
        this.starts.push(i + 1);
    }
  }

  locate(offset: number): SourceLocation {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] as number) + 1 };
  }
}
