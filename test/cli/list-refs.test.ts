// `flowguard list-refs`, spawned as a maintainer runs it: on the bundled catalog (its three shared
// lists, read through enums and through handlers) and on a project where a schema declares a list
// but neither interpolates it nor has handlers (it cannot see the list, so a change cannot reach it).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempProject } from '../kit/project.js';
import { ROOT, runFlowguardSync } from '../kit/spawn.js';

const BUNDLED = ['--schemas', join(ROOT, 'schemas'), '--lists', join(ROOT, 'shared-lists')];

function listRefs(project: string, ...args: string[]) {
  return runFlowguardSync(['list-refs', ...BUNDLED, '--project', project, ...args]);
}

describe('flowguard list-refs', () => {
  it('names per field the tools whose enums come from it, and the tools that see the list through handlers', () => {
    const project = tempProject();
    try {
      const text = listRefs(project.dir, 'evmChains');
      expect(text.code).toBe(0);
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('evmChains: 9 tools can see it');
      expect(lines[1]).toBe('  field etherscanAlias, in the enums of 4 tools:');
      expect(lines).toContain('    etherscan/accounts.mjs::getGasOracle');
      expect(lines).toContain('  through handlers only (they get the whole list), 5 tools:');
      expect(lines.at(-1)).toBe('    blockscout/explorer.mjs::getBalanceCompat');

      const json = JSON.parse(listRefs(project.dir, 'evmChains', '--json').stdout) as {
        list: string;
        fields: Record<string, string[]>;
        tools: string[];
      };
      expect(Object.keys(json.fields)).toEqual(['etherscanAlias']);
      expect(json.tools).toHaveLength(9);
      // The references are the catalog's own, as `flowguard list` names its tools.
      const listed = JSON.parse(runFlowguardSync(['list', ...BUNDLED, '--project', project.dir, '--json']).stdout) as {
        tools: Array<{ reference: string }>;
      };
      const references = new Set(listed.tools.map((tool) => tool.reference));
      for (const tool of json.tools) expect(references).toContain(tool);
    } finally {
      project.remove();
    }
  });

  it('says when no tool of the loaded schemas can see the list', () => {
    const project = tempProject();
    try {
      const run = listRefs(project.dir, 'noSuchList');
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("No tool of the loaded schemas can see the list 'noSuchList'.\n");
      expect(JSON.parse(listRefs(project.dir, 'noSuchList', '--json').stdout)).toEqual({
        list: 'noSuchList',
        fields: {},
        tools: [],
      });
    } finally {
      project.remove();
    }
  });

  it('leaves out a schema that declares the list but neither makes enums of it nor has handlers', () => {
    const project = tempProject({
      schemas: {
        'chains.mjs': `export const main = {
    namespace: 'chainnames', name: 'ChainNames', description: 'Chain names.', version: '2.0.0',
    root: 'https://api.chainnames.test',
    sharedLists: [ { ref: 'evmChains', version: '2.0.0' } ],
    routes: {
        getNames: { method: 'GET', path: '/names', description: 'Every name.', parameters: [], tests: [ { _description: 'all' } ] },
    },
};
`,
      },
    });
    try {
      const run = runFlowguardSync([
        'list-refs',
        '--schemas',
        project.schemas,
        '--lists',
        join(ROOT, 'shared-lists'),
        '--project',
        project.dir,
        'evmChains',
      ]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("No tool of the loaded schemas can see the list 'evmChains'.\n");
    } finally {
      project.remove();
    }
  });
});
