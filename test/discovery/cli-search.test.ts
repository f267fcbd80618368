// `flowguard search`, spawned as a person runs it, on the discovery fixture catalog.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../kit/project.js';
import { ROOT, runFlowguardSync } from '../kit/spawn.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'discovery', 'schemas');

/** `flowguard search` in a fresh project; `env` is its `.env` (a granted key). */
function searchWith(env: Record<string, string> | undefined, ...args: string[]) {
  const project = tempProject({ env });
  try {
    return runFlowguardSync(['search', '--schemas', SCHEMAS, '--project', project.dir, ...args]);
  } finally {
    project.remove();
  }
}

const search = (...args: string[]) => searchWith(undefined, ...args);

describe('flowguard search', () => {
  it('ranks the served tools, as JSON too; never one whose key is not granted', () => {
    const text = search('storm', 'alerts');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/skyline_getSevereWarnings {2}Severe weather warnings/);
    const json = JSON.parse(search('--json', '--limit', '2', 'gold', 'bullion', 'price').stdout) as {
      tools: Array<{ name: string }>;
    };
    expect(json.tools.map((tool) => tool.name)).not.toContain('goldvault_getBullionPrice');
    // The control: with its key granted, the same request finds it first.
    const granted = JSON.parse(
      searchWith({ GOLDVAULT_KEY: 'a-granted-key' }, '--json', '--limit', '2', 'gold', 'bullion', 'price').stdout,
    ) as { tools: Array<{ name: string }> };
    expect(granted.tools[0]?.name).toBe('goldvault_getBullionPrice');
  });

  it('says when nothing fits, and refuses a bad --limit naming it', () => {
    expect(search('order', 'a', 'pizza').stdout).toContain('No served tool fits "order a pizza"');
    const bad = search('--limit', '26', 'weather');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 25');
  });
});

describe('flowguard search prints schema text', () => {
  it('with what would act on a terminal escaped, in text and in JSON', () => {
    const project = tempProject();
    const schemas = project.schemas;
    try {
      project.write(
        'schemas/tides.mjs',
        `export const main = { namespace: 'tides', name: 'Tides', description: 'Tides.', version: '2.0.0', root: 'https://api.tides.test',
        routes: { getTides: { method: 'GET', path: '/tides', description: 'Tide tables \\u001b[2J\\u202e for harbours', parameters: [], tests: [{ _description: 'a' }] } } };`,
      );
      const run = (...args: string[]) =>
        runFlowguardSync(['search', '--schemas', schemas, '--project', project.dir, ...args]);
      const text = run('tide', 'tables');
      expect(text.stdout).toContain('tides_getTides');
      expect(text.stdout).toContain('\\x1b[2J');
      expect(text.stdout).not.toMatch(/[\u001b\u202e]/);
      const json = run('--json', 'tide', 'tables');
      expect(json.stdout).not.toMatch(/[\u001b\u202e]/);
      expect((JSON.parse(json.stdout) as { tools: Array<{ description: string }> }).tools[0]?.description).toContain(
        '\u001b[2J\u202e',
      );
    } finally {
      project.remove();
    }
  });
});
