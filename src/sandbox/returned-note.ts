// Which request a sandbox worker process last returned from, kept beside its messages rather than
// in them. The worker answers a request from the next turn of its event loop (protocol.ts, Reply):
// code the request left running that never lets the loop turn (an endless promise chain) holds
// the answer back, and the request misses its deadline. The failure then says whether the request
// had returned (the fault is what it left running) or not; telling the host at once would cost
// every call a second message, which the host must read: about 10 µs of a 35 µs round trip
// (docs/internals/performance.md). So the worker writes the request's id into a small file that
// the host reads only when a deadline is missed: one write in place, and nothing wakes the host.
// Each id has a slot of its own (the id modulo the slots), so a parked executeRequest call that
// returns beside the request running does not overwrite that request's note. Where no file can be
// made (no writable temporary folder), the process runs without a note: a missed deadline then
// says the request did not finish, the worse of the two guesses, and nothing else changes.

import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The note's file descriptor in the worker process: the fifth entry of its stdio (worker-process.ts). */
const RETURNED_NOTE_FD = 4;
/** The worker's argument that says it was given the note (without it, descriptor 4 may be anything). */
export const RETURNED_NOTE_FLAG = '--returned-note';
/** An id, as a little-endian double, in slot `id % SLOTS`: far more slots than requests a process runs at once. */
const NOTE_BYTES = 8;
const SLOTS = 64;
const written = Buffer.alloc(NOTE_BYTES);

const slotOf = (id: number): number => (id % SLOTS) * NOTE_BYTES;

/** Worker side, for a process given the note (`RETURNED_NOTE_FLAG`): request `id` has returned. */
export function noteReturned(id: number): void {
  written.writeDoubleLE(id);
  try {
    writeSync(RETURNED_NOTE_FD, written, 0, NOTE_BYTES, slotOf(id));
  } catch {
    // A write the file system refuses (full): this request goes without its note, as a process
    // without one (see the header); its answer must not wait on it.
  }
}

/** Host side: the note of one worker process, a file only it and that process hold open. */
export class ReturnedNote {
  private closed = false;

  private constructor(
    /** The descriptor to hand the worker process, which the host reads through too. */
    readonly fd: number,
    /** Where a platform that cannot remove an open file (Windows) left it until `close`. */
    private readonly leftAt: string | null,
  ) {}

  /**
   * A new, empty note; its file is removed at once where the platform allows (only the
   * descriptors keep it); null where no file can be made.
   */
  static open(): ReturnedNote | null {
    const path = join(tmpdir(), `flowguard-sandbox-${process.pid}-${randomBytes(6).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      // No writable temporary folder: the process runs without a note (see the header).
      return null;
    }
    try {
      unlinkSync(path);
      return new ReturnedNote(fd, null);
    } catch {
      // An open file cannot be removed here: it is removed when the note is closed.
      return new ReturnedNote(fd, path);
    }
  }

  /** Whether the worker process has noted that request `id` returned (of the last requests it ran). */
  returned(id: number): boolean {
    if (this.closed) return false;
    const read = Buffer.alloc(NOTE_BYTES);
    return readSync(this.fd, read, 0, NOTE_BYTES, slotOf(id)) === NOTE_BYTES && read.readDoubleLE() === id;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.leftAt) unlinkSync(this.leftAt);
  }
}
