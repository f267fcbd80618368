// The audit log: one JSON line per tool call, appended to files in a folder (by default the
// project's `.flowmcp/audit/`), a new file once the current one would pass `maxBytes`, the
// oldest removed past `files`. A call never waits for it: `write` only queues the record, and
// every FLUSH_MS (or sooner, once FLUSH_LINES are waiting) a background loop turns the queue into
// lines and appends them in one write: a write per call would cost a call more than a tenth of
// its time in thread-pool round trips (bench/observe.ts). While the disk cannot
// keep up, the queue holds at most `maxQueuedLines`; records past that are dropped and counted,
// with a warning when dropping starts and one saying how many when it stops.
//
// Each process writes files of its own (`audit-<start time>-<pid>-<n>.jsonl`), so replicas that
// share a project folder never write into one file; `files` counts every file in the folder.
// Records arrive redacted (call-record.ts): this module writes what it is given.

import { mkdirSync } from 'node:fs';
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger, type Logger } from './logger.js';

export interface AuditLogOptions {
  /** The folder; created if missing. */
  dir: string;
  /** A file is closed and a new one started before it would pass this many bytes. */
  maxBytes?: number;
  /** Files kept in the folder; the oldest go first. */
  files?: number;
  /** Records waiting to be written before new ones are dropped. */
  maxQueuedLines?: number;
  logger?: Logger;
}

const DEFAULT_AUDIT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_AUDIT_FILES = 10;
const DEFAULT_MAX_QUEUED_LINES = 10_000;
/** How long a record waits to be written at most, while the disk keeps up. */
const FLUSH_MS = 100;
/** Records that are written at once without waiting for FLUSH_MS. */
const FLUSH_LINES = 1000;
/** Names of audit files, in the order they were started when sorted as text. */
export const AUDIT_FILE = /^audit-[0-9TZ-]+-\d+-\d+\.jsonl$/;

export class AuditLog {
  private readonly maxBytes: number;
  private readonly files: number;
  private readonly maxQueued: number;
  private readonly logger: Logger;
  private queue: object[] = [];
  private writing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private file: { handle: FileHandle; name: string; bytes: number } | null = null;
  private started = 0;
  private closed = false;
  /** Records dropped since the log was opened (queue full, or the disk refused them). */
  dropped = 0;
  private droppedUnreported = 0;

  constructor(private readonly dir: string, options: Omit<AuditLogOptions, 'dir'> = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    this.files = options.files ?? DEFAULT_AUDIT_FILES;
    this.maxQueued = options.maxQueuedLines ?? DEFAULT_MAX_QUEUED_LINES;
    this.logger = options.logger ?? silentLogger;
  }

  /** Opens the log; a folder that cannot be made is an error here, at start, not at the first call. */
  static open(options: AuditLogOptions): AuditLog {
    mkdirSync(options.dir, { recursive: true });
    return new AuditLog(options.dir, options);
  }

  /** Queues one record; returns at once, whatever the disk is doing. */
  write(record: object): void {
    if (this.closed) return;
    if (this.queue.length >= this.maxQueued) {
      if (this.droppedUnreported === 0) this.logger.warn({ dir: this.dir, queued: this.queue.length }, 'audit log: writing cannot keep up; records are dropped until it does');
      this.dropped += 1;
      this.droppedUnreported += 1;
      return;
    }
    this.queue.push(record);
    if (this.writing) return;
    if (this.queue.length >= FLUSH_LINES) this.startDrain();
    // Unref'd: a pending write never keeps the process alive; close() writes what is left.
    else this.timer ??= setTimeout(() => this.startDrain(), FLUSH_MS).unref();
  }

  /** Settles once every record queued so far is written (or dropped). */
  async flush(): Promise<void> {
    if (this.queue.length > 0 && !this.writing) this.startDrain();
    while (this.writing) await this.writing;
  }

  private startDrain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing ??= this.drain();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.file?.handle.close().catch(() => undefined);
    this.file = null;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const records = this.queue;
      this.queue = [];
      await this.append(records.map((record) => `${JSON.stringify(record)}\n`));
    }
    this.writing = null;
    if (this.droppedUnreported > 0) {
      this.logger.warn({ dir: this.dir, dropped: this.droppedUnreported }, `audit log: ${this.droppedUnreported} records dropped while writing could not keep up`);
      this.droppedUnreported = 0;
    }
  }

  /** Appends lines, starting a new file wherever the current one would pass maxBytes. */
  private async append(lines: string[]): Promise<void> {
    let batch: string[] = [];
    let batchBytes = 0;
    try {
      for (const line of lines) {
        const bytes = Buffer.byteLength(line);
        const file = this.file ?? (await this.startFile());
        if (file.bytes + batchBytes + bytes > this.maxBytes && file.bytes + batchBytes > 0) {
          await this.writeBatch(batch, batchBytes);
          batch = [];
          batchBytes = 0;
          await this.rotate();
        }
        batch.push(line);
        batchBytes += bytes;
      }
      await this.writeBatch(batch, batchBytes);
    } catch (error) {
      // A full disk or a removed folder: these records are lost, counted, and the next batch tries a new file.
      const lost = lines.length;
      this.dropped += lost;
      this.logger.warn({ dir: this.dir, dropped: lost, err: (error as Error).message }, 'audit log: records could not be written');
      await this.file?.handle.close().catch(() => undefined);
      this.file = null;
    }
  }

  private async writeBatch(batch: string[], bytes: number): Promise<void> {
    if (batch.length === 0) return;
    // A file removed under the log (its folder cleaned up) would take every later line with it, unseen.
    if (this.file && !(await stat(join(this.dir, this.file.name)).catch(() => null))) await this.rotate();
    const file = this.file ?? (await this.startFile());
    await file.handle.write(batch.join(''));
    file.bytes += bytes;
  }

  private async rotate(): Promise<void> {
    await this.file?.handle.close();
    this.file = null;
    await this.startFile();
  }

  private async startFile(): Promise<NonNullable<AuditLog['file']>> {
    mkdirSync(this.dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    // Padded, so that files started in the same millisecond sort in the order they were started.
    const name = `audit-${stamp}-${process.pid}-${String(this.started++).padStart(6, '0')}.jsonl`;
    this.file = { handle: await open(join(this.dir, name), 'a'), name, bytes: 0 };
    await this.prune(name);
    return this.file;
  }

  /** Removes the oldest files past `files`; never the one being written. */
  private async prune(current: string): Promise<void> {
    const names = (await readdir(this.dir)).filter((name) => AUDIT_FILE.test(name)).sort();
    const excess = names.length - this.files;
    if (excess <= 0) return;
    for (const name of names.filter((name) => name !== current).slice(0, excess)) {
      await rm(join(this.dir, name), { force: true });
    }
  }
}
