// The lines a stdio client sends, bounded. The SDK's stdio transport buffers a line until its
// newline and, past its buffer's bound, closes itself: one over-long line (a client's bug, a
// huge argument) would end the server. Here a line longer than the bound is dropped as it
// arrives (never held whole), the client is told, and the lines after it are served.

import { Transform, type TransformCallback } from 'node:stream';

const NEWLINE = 0x0a;

/**
 * `input` as whole lines of at most `maxLineBytes` (newline excluded), each pushed on its own;
 * a longer line is dropped and `onDropped` is called once for it, when its newline arrives.
 */
export function boundedLines(
  input: NodeJS.ReadableStream,
  maxLineBytes: number,
  onDropped: (bytes: number) => void,
): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** Bytes of the line being dropped, or -1 while none is. */
  let dropping = -1;
  const lines = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      let from = 0;
      while (from < chunk.length) {
        const newline = chunk.indexOf(NEWLINE, from);
        const end = newline === -1 ? chunk.length : newline;
        const piece = chunk.subarray(from, end);
        if (dropping >= 0) dropping += piece.length;
        else if (heldBytes + piece.length > maxLineBytes) {
          dropping = heldBytes + piece.length;
          held = [];
          heldBytes = 0;
        } else {
          held.push(piece);
          heldBytes += piece.length;
        }
        if (newline === -1) break;
        if (dropping >= 0) onDropped(dropping);
        else this.push(Buffer.concat([...held, Buffer.of(NEWLINE)]));
        held = [];
        heldBytes = 0;
        dropping = -1;
        from = newline + 1;
      }
      done();
    },
  });
  input.pipe(lines);
  return lines;
}
