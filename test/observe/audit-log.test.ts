// The audit log's files on a real disk: size rotation and the files kept, a queue that drops
// (and counts, and says so) instead of growing or blocking when writing cannot keep up, and the
// reader behind `flowguard audit` with its filters and its `--since` forms.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../src/observe/audit-log.js';
import { parseSince, readAudit } from '../../src/observe/audit-read.js';
import { createLogger } from '../../src/observe/logger.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-audit-'));
  dirs.push(dir);
  return join(dir, 'audit');
}

/** A logger whose lines are kept, parsed. */
function memoryLogger(): { logger: ReturnType<typeof createLogger>; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), lines };
}

const record = (
  index: number,
  tool = 'ns_tool',
  time = new Date(Date.UTC(2026, 4, 1, 12, 0, index)).toISOString(),
) => ({ time, tool, outcome: 'ok', durationMs: 1, index, pad: 'x'.repeat(100) });

describe('AuditLog', () => {
  it('starts a new file before one would pass maxBytes and keeps only the newest files', async () => {
    const dir = tempDir();
    const audit = AuditLog.open({ dir, maxBytes: 1024, files: 3 });
    for (let index = 0; index < 40; index++) audit.write(record(index));
    await audit.flush();
    // Written in batches: more than one turn of the loop, so rotation happens between and within them.
    for (let index = 40; index < 60; index++) audit.write(record(index));
    await audit.close();
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(3);
    for (const file of files) expect(statSync(join(dir, file)).size).toBeLessThanOrEqual(1024);
    const kept = files.flatMap((file) =>
      readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { index: number }).index),
    );
    // The newest records, in order, none missing between the first kept and the last.
    expect(kept.at(-1)).toBe(59);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, at) => 60 - kept.length + at));
    expect(audit.dropped).toBe(0);
  });

  it('drops and counts records past the queue bound instead of waiting, and says so', async () => {
    const dir = tempDir();
    const { logger, lines } = memoryLogger();
    const audit = AuditLog.open({ dir, maxQueuedLines: 10, logger });
    // One burst in one turn of the event loop: nothing can have been written yet.
    for (let index = 0; index < 100; index++) audit.write(record(index));
    expect(audit.dropped).toBe(90);
    await audit.close();
    const written = readdirSync(dir).flatMap((file) =>
      readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean),
    );
    expect(written).toHaveLength(10);
    const warnings = lines.filter((line) => line.level === 40).map((line) => String(line.msg));
    expect(warnings).toEqual([
      expect.stringContaining('records are dropped'),
      expect.stringContaining('90 records dropped'),
    ]);
  });

  it('starts a new file when its file is removed under it (the folder cleaned up), instead of writing into the removed one', async () => {
    const dir = tempDir();
    const { logger, lines } = memoryLogger();
    const audit = AuditLog.open({ dir, logger });
    audit.write(record(0));
    await audit.flush();
    rmSync(dir, { recursive: true });
    // The open file is gone with its folder: a write into it would succeed and be lost.
    audit.write(record(1));
    await audit.close();
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
    expect((await readAudit(dir)).records.map((line) => line.index)).toEqual([1]);
  });
});

describe('reading the audit log', () => {
  it('filters by tool (name or reference) and start time, oldest first, and counts lines that are no record', async () => {
    const dir = tempDir();
    const audit = AuditLog.open({ dir });
    audit.write({ ...record(3, 'ns_b'), reference: 'ns/b.mjs::b' });
    audit.write(record(1, 'ns_a'));
    audit.write(record(2, 'ns_a'));
    await audit.close();
    writeFileSync(
      join(dir, 'audit-2026-05-01T00-00-00-000Z-1-0.jsonl'),
      '{"time":"2026-05-01T11:00:00.000Z","tool":"ns_a"}\n{"time": "cut sho',
    );
    const all = await readAudit(dir);
    expect(all.records.map((line) => line.time.slice(11, 19))).toEqual([
      '11:00:00',
      '12:00:01',
      '12:00:02',
      '12:00:03',
    ]);
    expect(all.unreadable).toBe(1);
    expect((await readAudit(dir, { tool: 'ns/b.mjs::b' })).records.map((line) => line.tool)).toEqual(['ns_b']);
    expect(
      (await readAudit(dir, { tool: 'ns_a', sinceMs: Date.parse('2026-05-01T12:00:02Z') })).records.map(
        (line) => line.index,
      ),
    ).toEqual([2]);
    expect(await readAudit(join(dir, 'missing'))).toEqual({ records: [], files: 0, unreadable: 0 });
  });

  it('takes --since as an ISO time or a span back from now', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    expect(parseSince('10m', now)).toBe(now - 600_000);
    expect(parseSince('2h', now)).toBe(now - 7_200_000);
    expect(parseSince('1d', now)).toBe(now - 86_400_000);
    expect(parseSince('30s', now)).toBe(now - 30_000);
    expect(parseSince('2026-04-30T08:00:00Z', now)).toBe(Date.parse('2026-04-30T08:00:00Z'));
    expect(parseSince('2026-04-30', now)).toBe(Date.parse('2026-04-30'));
    for (const bad of ['yesterday', '10', '5w', '2026-13-45', '']) expect(parseSince(bad, now)).toBeNull();
  });
});
