// decision R5: a `--marker--` label in root stands for one DNS label under a fixed domain. A host
// made only of markers, or whose markers make up the registrable domain, is VAL027: otherwise a
// preRequest handler could fill the marker with `localhost` or any host of its choosing.

import { describe, expect, it } from 'vitest';
import { effectiveAllowlist } from '../../src/libraries/allowlist.js';
import { checkSchemaText } from '../../src/schema/check.js';

function rootFindings(root: string) {
  const text = `export const main = {
    namespace: 'example', name: 'Example', description: 'Looks things up.', version: '2.0.0',
    root: ${JSON.stringify(root)},
    routes: { getThing: { method: 'GET', path: '/things', description: 'All things.', parameters: [], tests: [{ _description: 'all things' }] } }
  };`;
  const { findings, schema } = checkSchemaText('t.mjs', text, { allowedLibraries: effectiveAllowlist([]) });
  return { codes: findings.filter((f) => f.severity === 'error').map((f) => f.code), schema, findings };
}

describe('VAL027', () => {
  it.each([
    'https://--host--',
    'https://--host--:8443',
    'https://--a--.--b--',
    'https://api.--b--.com',
    'https://--a--.co.uk',
    'https://api.--a--.co.uk/v1',
    'https://--user--.github.io', // a private suffix: anyone may own a name under it
    'https://10.0.0.--last--',
  ])('%s is refused, and the file with it', (root) => {
    const { codes, schema } = rootFindings(root);
    expect(codes).toEqual(['VAL027']);
    expect(schema).toBeNull();
  });

  it.each([
    'https://--chain--.rpc.example.com',
    'https://explorer.execution.--chain--.lukso.network/api/v2',
    'https://--infura-subdomain--.infura.io/v3',
    'https://--alchemy-slug--.g.alchemy.com/v2',
    'https://rpc.--chain--.lukso.network',
    'https://--region--.api.example.co.uk',
    'https://api.example.com',
  ])('%s is fine', (root) => {
    expect(rootFindings(root).codes).toEqual([]);
  });

  it('says what is wrong and what a marker may stand for', () => {
    const finding = rootFindings('https://api.--b--.com').findings.find((f) => f.code === 'VAL027');
    expect(finding).toMatchObject({
      path: 'main.root',
      message:
        'root markers make up the registrable domain of api.--b--.com, so a preRequest handler could send the request to any host',
      hint: 'a --marker-- may only stand for a label under a fixed domain, as in https://--chain--.rpc.example.com',
    });
    expect(rootFindings('https://--host--:8443').findings.find((f) => f.code === 'VAL027')?.message).toBe(
      'root host --host-- is made of markers, so a preRequest handler could send the request to any host',
    );
  });
});
