// serve's structured log is read on terminals (`serve` in a shell, `docker logs`, `journalctl`):
// JSON escapes the C0 controls, and leaves an 8-bit CSI (U+009B), the bidi overrides and the line
// separators as they are. A schema file's name, a finding quoting its text, an upstream's
// answer in an output-schema warning all reach log lines. Every line the logger writes must be
// JSON of the same data in which nothing acts on the terminal.

import { expect, it } from 'vitest';
import { BatchedLines, createLogger, flushLogger } from '../../src/observe/logger.js';
import { actsOnTerminal } from '../../src/report/format.js';

it('writes JSON of the same data, with nothing in it that acts on a terminal', async () => {
  const written: string[] = [];
  const target = {
    write: (text: string, done?: (error?: Error | null) => void) => (written.push(text), done?.(), true),
  };
  const logger = createLogger({ level: 'info', destination: new BatchedLines(target) });
  const file = 'schemas/e\u009b2Jvil\u202egnp.mjs';
  const findings = ['SEC300 error \u2028forged\u2029 \u001b]0;pwned\u0007 \u061c\u200f\u2066'];
  logger.warn({ file, findings }, 'schema file has errors');
  await flushLogger(logger);
  const text = written.join('');
  expect([...text].filter((char) => actsOnTerminal(char))).toEqual([]);
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] as string)).toMatchObject({ file, findings, msg: 'schema file has errors' });
});
