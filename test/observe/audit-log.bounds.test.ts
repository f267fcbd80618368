// Issue 23, point 11f, on a real disk: no audit line passes MAX_LINE_BYTES whatever a record
// holds (its largest fields are cut, the same way every time, and the line says so); a record
// that cannot be made into a line is dropped, counted (also on /metrics) and warned about once
// per minute, and the records after it are written.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog, MAX_LINE_BYTES } from '../../src/observe/audit-log.js';
import { createLogger } from '../../src/observe/logger.js';
import { ServerMetrics } from '../../src/observe/metrics.js';
import { actsOnTerminal } from '../../src/report/format.js';
import { parseMetrics } from '../edge/helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowguard-audit-'));
  dirs.push(dir);
  return join(dir, 'audit');
}

function memoryLogger(): { logger: ReturnType<typeof createLogger>; warnings: string[] } {
  const warnings: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        const parsed = JSON.parse(line) as { level: number; msg: string };
        if (parsed.level === 40) warnings.push(parsed.msg);
      }
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), warnings };
}

function written(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean));
}

const call = (index: number, extra: Record<string, unknown> = {}) => ({
  time: '2026-05-01T12:00:00.000Z',
  tool: 'ns_tool',
  outcome: 'ok',
  durationMs: 1,
  index,
  ...extra,
});

describe('audit line bound', () => {
  it('a record with a 1 MB field and a 1 MB name is cut to one short line that says so, the same way each time', async () => {
    const dir = tempDir();
    const audit = AuditLog.open({ dir });
    const huge = { [`${'n'.repeat(1_000_000)}`]: 'v', q: 'x'.repeat(1_000_000) };
    audit.write(call(0, { arguments: huge, requests: [{ origin: 'https://a.test', status: 200 }] }));
    audit.write(call(1, { arguments: huge, requests: [{ origin: 'https://a.test', status: 200 }] }));
    audit.write(call(2, { tool: `t${'y'.repeat(1_000_000)}` }));
    audit.write(call(3));
    await audit.close();
    const lines = written(dir);
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(MAX_LINE_BYTES);
    const [first, second, third, fourth] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({
      index: 0,
      tool: 'ns_tool',
      outcome: 'ok',
      truncated: true,
      arguments: expect.stringMatching(/^\[\d+ characters, cut\]$/),
      requests: [{ origin: 'https://a.test', status: 200 }],
    });
    expect(lines[1]).toBe(lines[0]?.replace('"index":0', '"index":1'));
    expect(second?.index).toBe(1);
    expect(third).toMatchObject({ index: 2, truncated: true });
    expect((third?.tool as string).length).toBeLessThanOrEqual(201);
    expect(fourth).toEqual(call(3));
    expect(audit.dropped).toBe(0);
  });

  it('a record that throws when read is dropped, counted on /metrics and warned about once; the records after it are written', async () => {
    const dir = tempDir();
    const { logger, warnings } = memoryLogger();
    const audit = AuditLog.open({ dir, logger });
    const metrics = new ServerMetrics();
    metrics.countAuditDrops(() => audit.dropped);
    const broken = () => ({
      ...call(-1),
      get arguments(): unknown {
        throw new RangeError('Maximum call stack size exceeded');
      },
    });
    audit.write(call(0));
    audit.write(broken());
    audit.write(broken());
    audit.write(call(1));
    await audit.flush();
    audit.write(broken());
    audit.write(call(2));
    await audit.close();
    expect(written(dir).map((line) => (JSON.parse(line) as { index: number }).index)).toEqual([0, 1, 2]);
    expect(audit.dropped).toBe(3);
    expect(parseMetrics((await metrics.scrape()).text).get('flowguard_audit_records_dropped_total')).toBe(3);
    // One warning in the minute, however many records were dropped.
    expect(warnings.filter((text) => text.includes('could not be made into a line'))).toHaveLength(1);
  });
});

// An eleventh review: an audit file is read on terminals too (`tail -f`, `less`). JSON escapes
// only C0 controls; a client's argument or an OAuth claim with an 8-bit CSI, a bidi override or a
// line separator was written as it is. Every line is JSON of the same data that acts on nothing,
// also one cut to the bound (each such character takes six bytes escaped).
describe('audit lines on a terminal', () => {
  it('hold nothing that acts on a terminal, and read back as the same data, within the bound', async () => {
    const dir = tempDir();
    const audit = AuditLog.open({ dir });
    const hostile = '\u009b2J\u202eevil\u2028forged\u061c\u2066';
    audit.write(call(0, { arguments: { q: hostile } }));
    audit.write(call(1, { arguments: { q: hostile.repeat(5_000) } }));
    await audit.close();
    const lines = written(dir);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect([...line].filter((char) => actsOnTerminal(char))).toEqual([]);
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(MAX_LINE_BYTES);
    }
    expect(JSON.parse(lines[0] as string)).toMatchObject({ index: 0, arguments: { q: hostile } });
    expect(JSON.parse(lines[1] as string)).toMatchObject({ index: 1, truncated: true });
  });
});
