// The log destination of serve: lines go out together, and a reader that stops reading stderr
// neither blocks the server nor grows it without bound (lines past the bound are dropped and
// counted).

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BatchedLines, createLogger, flushLogger } from '../../src/observe/logger.js';

describe('BatchedLines', () => {
  it('writes the lines of many calls in few writes, each a JSON object', async () => {
    const writes: string[] = [];
    const target = new Writable({
      write: (chunk: Buffer, _encoding, done) => void (writes.push(chunk.toString('utf8')), done()),
    });
    const logger = createLogger({ level: 'info', destination: new BatchedLines(target) });
    for (let index = 0; index < 100; index++) logger.info({ tool: 'ns_tool', outcome: 'ok', ms: index }, 'call');
    logger.debug('not at info');
    await flushLogger(logger);
    expect(writes.length).toBeLessThan(5);
    const lines = writes
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; ms: number; level: number; time: number });
    expect(lines.map((line) => line.ms)).toEqual(Array.from({ length: 100 }, (_, index) => index));
    expect(lines[0]).toMatchObject({ level: 30, msg: 'call', tool: 'ns_tool', outcome: 'ok' });
    expect(typeof lines[0]?.time).toBe('number');
  });

  it('drops and counts lines once a reader that stopped reading holds 4 MiB, without blocking', async () => {
    // A target that takes one write and never finishes it, as a full pipe nobody reads.
    const target = new Writable({ highWaterMark: 1024, write: () => undefined });
    const destination = new BatchedLines(target);
    const logger = createLogger({ level: 'info', destination });
    const line = 'x'.repeat(1000);
    for (let index = 0; index < 10_000; index++) logger.info({ index }, line);
    logger.flush();
    for (let index = 0; index < 10; index++) logger.info({ index }, line);
    expect(destination.dropped).toBeGreaterThan(5000);
    expect(target.writableLength).toBeLessThanOrEqual(4 * 1024 * 1024 + 64 * 1024);
  });
});
