// A file written whole or not at all, for the files a reader may open while flowguard writes them
// (another replica, a reload, a watcher, an editor): they see the old text or the new one, never
// half of one, and a write that fails leaves nothing beside the file.

import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to a new hidden file beside `file`, then renames it over `file` (the folder is
 * made if needed). `wx`: never through a file or link already at the temporary name. Throws the
 * file system's error as it came; the caller says what the file is.
 */
export function writeWhole(file: string, text: string, mode?: number): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true });
  const temporary = join(folder, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
