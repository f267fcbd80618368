// Schema and list files are untrusted input: a file's size is checked before it is read whole
// and parsed (decision R13), so one huge file costs a finding instead of the host's memory.

import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { FindingSink, unreadableFile } from '../report/findings.js';
import { type Code } from '../report/codes.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';

/** The default of `limits.maxFileBytes`: 2 MiB, over 13 times the largest file of the public corpus (154 kB). */
const DEFAULT_MAX_FILE_BYTES = CONFIG_DEFAULTS.limits.maxFileBytes;

/**
 * A file's text and the SHA-256 (hex) of the bytes it was decoded from (as `sha256sum` shows
 * them): what was read, once. A file read again may hold other bytes (swapped, or a FIFO that
 * hands each reader its own), so whatever vouches for a file (a group's content record) takes
 * this hash, never a second read.
 */
export type SourceText =
  { text: string; sha256: string; sink?: undefined } | { text?: undefined; sha256?: undefined; sink: FindingSink };

/**
 * The file's text, or a sink holding its one finding: `tooLarge` (with the size, the limit and
 * the config key) past `maxBytes`, VAL009 when it cannot be read. Never reads more than one
 * byte past the limit, even from a file that grows while it is read.
 */
export function readSourceFile(file: string, maxBytes: number | undefined, tooLarge: Code): SourceText {
  const limit = maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  let fd: number;
  try {
    // Never through a symbolic link: a folder's listing skips links, and a file swapped for one
    // after the listing (a --watch reload, say) would read whatever it points at (the project's
    // .env) as schema text. A path the operator names on the command line is resolved first.
    // Nor waiting: opening a FIFO swapped in waits for a writer, and would hold the whole process.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      return {
        sink: unreadableFile(file, new Error('it is a symbolic link, which is never read as a schema or list')),
      };
    return { sink: unreadableFile(file, error) };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      return {
        sink: unreadableFile(
          file,
          new Error('it is no regular file (a folder, a FIFO, a device or a socket), which is never read'),
        ),
      };
    const { size } = stat;
    if (size > limit) return { sink: oversized(file, `the file is ${bytes(size)}`, limit, tooLarge) };
    // The size is where reading starts, not a promise: read until the end, at most limit + 1 bytes.
    let buffer = Buffer.allocUnsafe(size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > limit)
          return {
            sink: oversized(
              file,
              'reading the file went past the limit (it grew while it was read, or is no regular file)',
              limit,
              tooLarge,
            ),
          };
        const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit + 1));
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0)
        return {
          text: buffer.toString('utf8', 0, length),
          sha256: createHash('sha256').update(buffer.subarray(0, length)).digest('hex'),
        };
      length += read;
    }
  } catch (error) {
    return { sink: unreadableFile(file, error) };
  } finally {
    closeSync(fd);
  }
}

function oversized(file: string, what: string, limit: number, code: Code): FindingSink {
  const sink = new FindingSink(file);
  sink.addAt(
    code,
    undefined,
    `${what}; the limit (limits.maxFileBytes) is ${bytes(limit)}, so the file was not parsed`,
    'split it into smaller files, or raise limits.maxFileBytes in .flowmcp/config.json',
  );
  return sink;
}

/** `53778085 bytes (51.3 MiB)`: exact for the author, readable at a glance. */
function bytes(count: number): string {
  const units: Array<[number, string]> = [
    [1024 * 1024, 'MiB'],
    [1024, 'KiB'],
  ];
  const unit = units.find(([size]) => count >= size);
  return unit ? `${count} bytes (${+(count / unit[0]).toFixed(1)} ${unit[1]})` : `${count} bytes`;
}
