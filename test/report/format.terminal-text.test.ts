// The one rule for text a command prints (report/format.ts): every character that acts on a
// terminal or reorders what it shows is escaped, tab and newline stay; the JSON form parses back
// to exactly the same data.

import { describe, expect, it } from 'vitest';
import { terminalJson, terminalText } from '../../src/report/format.js';

/** Every UTF-16 code unit but the surrogates, each once. */
const EVERY_CHARACTER = Array.from({ length: 0x10000 }, (_, code) => code)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCharCode(code))
  .join('');
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('writes ESC, BEL, C1 controls and bidi characters as escapes, and keeps tab and newline', () => {
    expect(terminalText('a\x1b[2J\x07b\x9b\u202ec\u2066d\u2069\r\x7f\t\n')).toBe(
      'a\\x1b[2J\\x07b\\x9b\\u202ec\\u2066d\\u2069\\x0d\\x7f\t\n',
    );
  });

  it('leaves nothing that acts on a terminal, whatever the text', () => {
    expect(terminalText(EVERY_CHARACTER)).not.toMatch(ACTING);
    expect(terminalText('Zürich — 東京 ✓')).toBe('Zürich — 東京 ✓');
  });
});

describe('terminalJson', () => {
  it('is JSON of exactly the same data, with nothing raw that acts on a terminal', () => {
    const value = { [`key${EVERY_CHARACTER.slice(0, 300)}`]: EVERY_CHARACTER, list: ['\u202e', '\x9b'] };
    const text = terminalJson(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(ACTING);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('findings quote untrusted schema text', () => {
  it('a route name with ESC and U+202E prints escaped in validate output and its JSON (and reads back exactly)', async () => {
    const { checkSchemaText } = await import('../../src/schema/check.js');
    const { effectiveAllowlist } = await import('../../src/libraries/allowlist.js');
    const { formatHuman, formatJson } = await import('../../src/report/format.js');
    const name = 'get\x1b[2JThing\u202e';
    const text = `export const main = { namespace: 'example', name: 'Example', description: 'Things.', version: '2.0.0', root: 'https://api.example.com',
      routes: { ${JSON.stringify(name)}: { method: 'GET', path: '/thing', description: 'One thing.', parameters: [], tests: [{ _description: 'a thing' }] } } };`;
    const { findings } = checkSchemaText('example.mjs', text, { allowedLibraries: effectiveAllowlist([]) });
    expect(findings.some((finding) => finding.message.includes(name))).toBe(true);
    const reports = [{ file: 'example.mjs', findings }];
    expect(formatHuman(reports)).not.toMatch(ACTING);
    expect(formatHuman(reports)).toContain('get\\x1b[2JThing\\u202e');
    expect(formatJson(reports)).not.toMatch(ACTING);
    expect(JSON.stringify(JSON.parse(formatJson(reports)))).toContain(JSON.stringify(name).slice(1, -1));
  });

  it('generated source text (migrate, import) writes them as escapes too', async () => {
    const { quote } = await import('../../src/migrate/format.js');
    expect(quote('a\u202eb\x9bc')).toBe("'a\\u202eb\\u009bc'");
  });
});
