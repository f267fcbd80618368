// The nesting bound on upstream JSON (decision R13), checked on the bytes before anything parses
// or walks them: one pass, no recursion, strings skipped, chunk by chunk as they arrive.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** The nesting of a JSON text read in chunks: a string or escape cut between two chunks carries over. */
export class JsonDepth {
  private depth = 0;
  private inString = false;
  /** The previous chunk ended on a backslash inside a string: the next byte is escaped. */
  private escaped = false;

  constructor(private readonly max: number) {}

  /** Reads the next chunk; true once the text has nested more than `max` levels deep. */
  deeperAfter(chunk: Uint8Array): boolean {
    // Locals in the loop, fields between chunks: this runs over every byte of every JSON answer.
    let { depth, inString } = this;
    let at = this.escaped ? 1 : 0;
    this.escaped = false;
    for (; at < chunk.length; at++) {
      const byte = chunk[at];
      if (inString) {
        if (byte === BACKSLASH) at++;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        if (++depth > this.max) return true;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
    }
    // A backslash as the chunk's last byte escapes the first byte of the next one.
    if (at > chunk.length) this.escaped = true;
    this.depth = depth;
    this.inString = inString;
    return false;
  }
}
