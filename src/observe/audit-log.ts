// The audit log: one JSON line per tool call, appended to files in a folder (by default the
// project's `.flowmcp/audit/`), a new file once the current one would pass `maxBytes`, the
// oldest removed past `files`. A call never waits for it: `write` only queues the record, and
// every FLUSH_MS (or sooner, once FLUSH_LINES are waiting) a background loop turns the queue into
// lines and appends them in one write: a write per call would cost a call more than a tenth of
// its time in thread-pool round trips (bench/observe.ts). While the disk cannot
// keep up, the queue holds at most `maxQueuedLines`; records past that are dropped and counted,
// with a warning when dropping starts and one saying how many when it stops.
//
// No line is longer than MAX_LINE_BYTES, whatever a client sent: a record past it has its largest
// fields cut, one by one, biggest first, and says so (`"truncated": true`); a record that cannot be
// made into a line at all (it throws, or its scalar fields alone pass the bound) is dropped,
// counted in `dropped`, and warned about at most once per WARN_EVERY_MS; later records are
// written as usual.
//
// Each process writes files of its own (`audit-<start time>-<pid>-<n>.jsonl`), so replicas that
// share a project folder never write into one file; `files` counts every file in the folder.
// Records arrive redacted (call/record.ts): this module writes what it is given.

import { mkdirSync } from 'node:fs';
import { open, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger, type Logger } from './logger.js';
import { CONFIG_DEFAULTS } from '../config/defaults.js';
import { plural } from '../shared/plural.js';
import { terminalJson } from '../shared/terminal-text.js';

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

const DEFAULT_AUDIT_MAX_BYTES = CONFIG_DEFAULTS.audit.maxBytes;
const DEFAULT_AUDIT_FILES = CONFIG_DEFAULTS.audit.files;
const DEFAULT_MAX_QUEUED_LINES = 10_000;
/** How long a record waits to be written at most, while the disk keeps up. */
const FLUSH_MS = 100;
/** Records that are written at once without waiting for FLUSH_MS. */
const FLUSH_LINES = 1000;
/** Longest audit line, newline included, in bytes. */
export const MAX_LINE_BYTES = 16 * 1024;
/** A string field of a record too long for its line is cut to this many characters. */
const CUT_FIELD_CHARS = 200;
/** Warnings of records that could not be written come at most this often (each says how many). */
const WARN_EVERY_MS = 60_000;
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
  /** Records dropped since the log was opened (queue full, unwritable, or the disk refused them). */
  dropped = 0;
  private droppedUnreported = 0;
  private unwritable = 0;
  private lastUnwritableWarning = -Infinity;

  constructor(
    private readonly dir: string,
    options: Omit<AuditLogOptions, 'dir'> = {},
  ) {
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
      if (this.droppedUnreported === 0)
        this.logger.warn(
          { dir: this.dir, queued: this.queue.length },
          'audit log: writing cannot keep up; records are dropped until it does',
        );
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

  /** Runs on a timer: it never rejects (a rejection there would end the process). */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const records = this.queue;
        this.queue = [];
        const lines = records.map((record) => this.lineOf(record)).filter((line): line is string => line !== null);
        await this.append(lines);
      }
    } catch (error) {
      this.logger.warn({ dir: this.dir, err: (error as Error)?.message }, 'audit log: writing failed');
    }
    this.writing = null;
    if (this.droppedUnreported > 0) {
      this.logger.warn(
        { dir: this.dir, dropped: this.droppedUnreported },
        `audit log: ${plural(this.droppedUnreported, 'record')} dropped while writing could not keep up`,
      );
      this.droppedUnreported = 0;
    }
  }

  /** The record as one line of at most MAX_LINE_BYTES; null (dropped, counted, warned about) when it cannot be one. */
  private lineOf(record: object): string | null {
    try {
      const line = fittedLine(record);
      if (line !== null) return line;
    } catch {
      // A record that throws as it is read is dropped like one that does not fit.
    }
    this.dropped += 1;
    this.unwritable += 1;
    const now = Date.now();
    if (now - this.lastUnwritableWarning >= WARN_EVERY_MS) {
      this.lastUnwritableWarning = now;
      this.logger.warn(
        { dir: this.dir, dropped: this.unwritable },
        `audit log: ${plural(this.unwritable, 'record')} dropped: could not be made into a line of at most ${MAX_LINE_BYTES} bytes`,
      );
      this.unwritable = 0;
    }
    return null;
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
      this.logger.warn(
        { dir: this.dir, dropped: lost, err: (error as Error).message },
        'audit log: records could not be written',
      );
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

/**
 * `record` as a JSON line of at most MAX_LINE_BYTES. A longer one has its largest fields cut
 * first (a string to CUT_FIELD_CHARS characters, anything else to a note of its size) until it
 * fits: the same record always gives the same line. Null when even that does not fit.
 */
function fittedLine(record: object): string | null {
  const whole = jsonLine(record);
  if (Buffer.byteLength(whole) <= MAX_LINE_BYTES) return whole;
  // Spreading reads every field once (a call record's fields may be getters).
  const fields: Record<string, unknown> = { ...record, truncated: true };
  const bySize = Object.keys(fields)
    .map((name) => ({ name, size: JSON.stringify(fields[name])?.length ?? 0 }))
    .sort((a, b) => b.size - a.size || (a.name < b.name ? -1 : 1));
  for (const { name, size } of bySize) {
    const value = fields[name];
    if (typeof value === 'string' ? value.length <= CUT_FIELD_CHARS : typeof value !== 'object' || value === null)
      continue;
    fields[name] = typeof value === 'string' ? `${value.slice(0, CUT_FIELD_CHARS)}…` : `[${size} characters, cut]`;
    const line = jsonLine(fields);
    if (Buffer.byteLength(line) <= MAX_LINE_BYTES) return line;
  }
  return null;
}

/**
 * One JSON line that a terminal shows as it is (`tail -f`): JSON escapes only C0 controls, so
 * the rest that acts on one (an 8-bit CSI, a bidi override, a line separator) is escaped too.
 */
function jsonLine(value: object): string {
  return `${terminalJson(JSON.stringify(value))}\n`;
}
