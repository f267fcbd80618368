// ServeOutput alone, on a logger writing into an array: in text a line for a person is written as
// it is; in JSON the same call is one log entry, a person's instructions are left out, and a line
// the server's parts write while running (an HTTP error) becomes a warn entry without the prefix.

import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observe/logger.js';
import { ServeOutput, type LogFormat } from '../../src/cli/serve-output.js';

function output(format: LogFormat) {
  const written: string[] = [];
  const logged: Array<Record<string, unknown>> = [];
  const logger = createLogger({ destination: { write: (line: string) => void logged.push(JSON.parse(line)) } });
  return { out: new ServeOutput(format, (line) => void written.push(line), logger), written, logged };
}

describe('ServeOutput', () => {
  it('in text writes every line as it is and logs nothing', () => {
    const { out, written, logged } = output('text');
    out.say('flowguard: serving 1 tool over stdio', 'info', 'serving', { tools: 1 });
    out.text('  inspect:');
    out.running('flowguard: http: a client error');
    expect(written).toEqual(['flowguard: serving 1 tool over stdio', '  inspect:', 'flowguard: http: a client error']);
    expect(logged).toEqual([]);
  });

  it('in JSON writes no line: what is said is an entry with its level and fields, instructions are left out', () => {
    const { out, written, logged } = output('json');
    out.say('flowguard: serving 1 tool over stdio', 'info', 'serving', { tools: 1 });
    out.text('  inspect:');
    out.running('flowguard: http: a client error');
    out.say('flowguard: group x cannot be served', 'error', 'group cannot be served', { group: 'x' });
    expect(written).toEqual([]);
    expect(logged).toMatchObject([
      { level: 30, msg: 'serving', tools: 1 },
      { level: 40, msg: 'http: a client error' },
      { level: 50, msg: 'group cannot be served', group: 'x' },
    ]);
  });

  it('in JSON says each group endpoint as an entry: served with its tools, or not served with why', () => {
    const { out, written, logged } = output('json');
    out.endpoints(
      ['  /mcp/shop: 0 of its 0 tools served', '  /mcp/gone: NOT served'],
      [
        { name: 'shop', serving: { tools: [], discovery: 'all' } },
        { name: 'gone', kind: 'selection', refused: 'it does not verify' },
      ],
      '/mcp',
    );
    expect(written).toEqual([]);
    expect(logged).toMatchObject([
      { level: 30, msg: 'endpoint served', endpoint: '/mcp/shop', kind: 'group', tools: 0, listing: 'all' },
      { level: 40, msg: 'endpoint not served', endpoint: '/mcp/gone', kind: 'selection', reason: 'it does not verify' },
    ]);
  });
});
