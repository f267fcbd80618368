// `flowguard search`, spawned as a person runs it, on the discovery fixture catalog.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../support/project.js';
import { BIN, ROOT } from '../mcp/helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'discovery', 'schemas');

function search(...args: string[]) {
  const project = tempProject();
  try {
    return spawnSync(process.execPath, [BIN, 'search', '--schemas', SCHEMAS, '--project', project.dir, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  } finally {
    project.remove();
  }
}

describe('flowguard search', () => {
  it('ranks the served tools, as JSON too; never one whose key is not granted', () => {
    const text = search('storm', 'alerts');
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/skyline_getSevereWarnings {2}Severe weather warnings/);
    const json = JSON.parse(search('--json', '--limit', '2', 'gold', 'bullion', 'price').stdout) as { tools: Array<{ name: string }> };
    expect(json.tools.map((tool) => tool.name)).not.toContain('goldvault_getBullionPrice');
  });

  it('says when nothing fits, and refuses a bad --limit naming it', () => {
    expect(search('order', 'a', 'pizza').stdout).toContain('No served tool fits "order a pizza"');
    const bad = search('--limit', '26', 'weather');
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--limit must be a whole number from 1 to 25');
  });
});
