// Reading the audit log back (`flowguard audit`): every file of the folder, oldest first, line by
// line, keeping the records that match a tool and a start time. A line that is no JSON object
// (the half-written last line of a process that was killed) is counted, never fatal.

import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AUDIT_FILE } from './audit-log.js';

/** The fields a reader filters on; a record has more (call/record.ts). */
export interface AuditLine {
  time: string;
  tool: string;
  [field: string]: unknown;
}

export interface AuditQuery {
  /** Only calls of this tool: its MCP name or its reference. */
  tool?: string;
  /** Only calls started at or after this time (epoch milliseconds). */
  sinceMs?: number;
}

export interface AuditReading {
  records: AuditLine[];
  /** Files read. */
  files: number;
  /** Lines that could not be read as a record. */
  unreadable: number;
}

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `--since`: an ISO time (`2026-05-01`, `2026-05-01T12:00:00Z`) or a span back from `nowMs`
 * (`30s`, `10m`, `2h`, `1d`); null when the text is neither.
 */
export function parseSince(text: string, nowMs = Date.now()): number | null {
  const span = /^(\d+)([smhd])$/.exec(text.trim());
  if (span) return nowMs - Number(span[1]) * (UNITS[span[2] as string] as number);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const time = Date.parse(text.trim());
  return Number.isNaN(time) ? null : time;
}

/** The records of the folder that match, in order of their start time; no folder reads as no records. */
export async function readAudit(dir: string, query: AuditQuery = {}): Promise<AuditReading> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => AUDIT_FILE.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], files: 0, unreadable: 0 };
    throw error;
  }
  const reading: AuditReading = { records: [], files: names.length, unreadable: 0 };
  for (const name of names) {
    const lines = createInterface({ input: createReadStream(join(dir, name), 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const record = parseLine(line);
      if (!record) reading.unreadable += 1;
      else if (matches(record, query)) reading.records.push(record);
    }
  }
  // Files of several processes interleave in time; a stable sort keeps each file's order for equal times.
  reading.records.sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  return reading;
}

function parseLine(line: string): AuditLine | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const record = value as Record<string, unknown>;
    return typeof record.time === 'string' && typeof record.tool === 'string' ? (record as AuditLine) : null;
  } catch {
    // A line that is no JSON (a process stopped while writing): counted as unreadable by the caller.
    return null;
  }
}

function matches(record: AuditLine, query: AuditQuery): boolean {
  if (query.tool !== undefined && record.tool !== query.tool && record.reference !== query.tool) return false;
  if (query.sinceMs !== undefined && !(Date.parse(record.time) >= query.sinceMs)) return false;
  return true;
}
