// The resident memory of a process (a worker process as the host watches it, or a worker itself),
// read from Linux's /proc/<pid>/statm through a descriptor kept open. The worker checks its own
// after every request (worker.ts): `process.memoryUsage.rss()` opens, reads and parses
// /proc/self/stat each time, about 19 µs here, a third of a sandbox worker's time per hook call;
// a read of the open statm takes about 4 µs. Where /proc is missing (not Linux) there is no reading.

import { closeSync, openSync, readSync } from 'node:fs';

const statm = Buffer.alloc(128);
let pageBytes: number | undefined;

/** statm's second field: resident pages. */
function residentPages(fd: number): number {
  const text = statm.toString('latin1', 0, readSync(fd, statm, 0, statm.length, 0));
  const from = text.indexOf(' ') + 1;
  return Number(text.slice(from, text.indexOf(' ', from)));
}

/** The size of the pages statm counts: this process's resident bytes over its resident pages, to a power of two. */
function pageSize(): number {
  if (pageBytes === undefined) {
    const fd = openSync('/proc/self/statm', 'r');
    try {
      pageBytes = 2 ** Math.round(Math.log2(process.memoryUsage.rss() / residentPages(fd)));
    } finally {
      closeSync(fd);
    }
  }
  return pageBytes;
}

export class ResidentMemory {
  private constructor(private fd: number | null) {}

  /** The memory of process `pid` (`self`: this one); null where /proc cannot be read. */
  static of(pid: number | 'self'): ResidentMemory | null {
    try {
      pageSize();
      return new ResidentMemory(openSync(`/proc/${pid}/statm`, 'r'));
    } catch {
      // No /proc (not Linux), or the process has gone already: no reading.
      return null;
    }
  }

  /** Resident bytes now; 0 once the process has gone or the reading is closed. */
  bytes(): number {
    if (this.fd === null) return 0;
    try {
      return residentPages(this.fd) * pageSize();
    } catch {
      // The process has ended: /proc no longer answers for it.
      return 0;
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
