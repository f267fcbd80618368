// SES refuses source holding `<!--` or `-->` anywhere, strings included (SES_HTML_COMMENT_REJECTED);
// two files of the 3.0.0 catalog scrape HTML with such strings. The factory's text is escaped to
// the same values before the sandbox evaluates it: the file loads and its handler sees the exact
// strings it wrote.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { escapeHtmlComments } from '../../src/scan/html-comments.js';
import { tempProject } from '../kit/project.js';

describe('escapeHtmlComments', () => {
  it('escapes the sequences in strings, regular expressions and templates to the same value, and blanks them in comments', () => {
    const source = '() => ({ a: "x<!--y-->", b: /<!--(.*?)-->/g, c: `t<!--${1}-->` /* <!-- note --> */ })';
    const escaped = escapeHtmlComments(source);
    expect(escaped).not.toMatch(/<!--|-->/);
    const evaluate = (text: string) =>
      (new Function(`return (${text})`)() as () => { a: string; b: RegExp; c: string })();
    const before = evaluate(source);
    const after = evaluate(escaped);
    expect(after.a).toBe(before.a);
    expect(after.c).toBe(before.c);
    expect('a<!--b-->c'.replace(after.b, '')).toBe('ac');
  });

  it('leaves a source without the sequences alone', () => {
    const source = '() => ({ a: "<!-" })';
    expect(escapeHtmlComments(source)).toBe(source);
  });
});

describe('a schema whose handlers hold <!-- in a string', () => {
  it('loads in the sandbox, and the handler sees the string as written', async () => {
    const project = tempProject();
    mkdirSync(join(project.dir, 'schemas'));
    writeFileSync(
      join(project.dir, 'schemas', 'scraper.mjs'),
      `export const main = {
    namespace: 'scraper', name: 'Scraper', description: 'Strips HTML comments.', version: '2.0.0', docs: [], tags: [],
    root: 'https://api.scraper.test',
    routes: { strip: { method: 'GET', path: '/page', description: 'Strips comments.', parameters: [], tests: [{ _description: 'a' }] } }
};
export const handlers = ({ sharedLists, libraries }) => ({
    strip: { executeRequest: async () => ({ response: 'a<!-- hidden -->b'.replace(/<!--.*?-->/g, '') + '|<!--|-->' }) }
});
`,
    );
    const catalog = await Catalog.load({
      schemas: join(project.dir, 'schemas'),
      project: project.dir,
      env: {},
      sandbox: { size: 1 },
    });
    try {
      expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
      expect(await catalog.call('scraper_strip', {})).toMatchObject({
        ok: true,
        content: { kind: 'text', value: 'ab|<!--|-->' },
      });
    } finally {
      await catalog.close();
      project.remove();
    }
  });
});
