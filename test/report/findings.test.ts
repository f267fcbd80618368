import { describe, expect, it } from 'vitest';
import { FindingSink, childPath, parentPath } from '../../src/report/findings.js';

describe('FindingSink', () => {
  it.each([
    ['\n', 'a\nbc\nd'],
    ['\r\n', 'a\r\nbc\r\nd'],
    ['\r', 'a\rbc\rd'],
    ['\u2028', 'a\u2028bc\u2028d'],
    ['\u2029', 'a\u2029bc\u2029d'],
    ['mixed', 'a\nbc\r\nd'],
  ])('turns offsets into 1-based lines and columns across %j line ends', (_eol, text) => {
    const sink = new FindingSink('t.mjs', text);
    sink.addAt('SEC016', text.indexOf('c'), 'x');
    sink.addAt('SEC016', text.indexOf('d'), 'x');
    sink.addAt('SEC016', 0, 'x');
    expect(sink.findings.map((f) => [f.line, f.column])).toEqual([
      [2, 2],
      [3, 1],
      [1, 1],
    ]);
  });

  it('takes severity from the code table and drops findings below values that were not literal', () => {
    const sink = new FindingSink('t.mjs');
    sink.ignoreBelow(['main.routes.a']);
    sink.add('VAL036', 'main.routes.a', 'x');
    sink.add('VAL036', 'main.routes.a.output', 'x');
    sink.add('VAL036', 'main.routes.ab', 'x');
    expect(sink.findings.map((f) => [f.path, f.severity])).toEqual([['main.routes.ab', 'warning']]);
  });
});

describe('paths', () => {
  it.each([
    ['main', 'routes', 'main.routes'],
    ['main.parameters', 3, 'main.parameters[3]'],
    ['main.routes', '/nft/:address', 'main.routes["/nft/:address"]'],
    ['main.headers', 'x-api-key', 'main.headers["x-api-key"]'],
    ['main', '$ok_1', 'main.$ok_1'],
    ['main', '1a', 'main["1a"]'],
  ])('childPath(%j, %j) is %j', (parent, key, expected) => {
    expect(childPath(parent, key)).toBe(expected);
  });

  it('parentPath undoes one childPath step', () => {
    expect(parentPath('main.routes.getX.output', 'output')).toBe('main.routes.getX');
  });
});
