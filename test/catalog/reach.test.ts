// Issue 23, guarantees 6, 4 (third point) and 9 (unusable literals): the reach of executeRequest
// handlers, attacked through the real catalog, sandbox and bridge. Loopback servers stand for
// the upstreams; a request that is refused leaves them without a record (or, for the TLS
// service, without a connection).

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { schemaRows } from '../../src/cli/list.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const RPC_KEY = 'rpc-key-value-5566778899';

/** A schema whose route `any` fetches the URL it is given, and `root` the URL the core built; `extra` is more text in the file. */
function fetchingSchema(namespace: string, root: string, extra = '', main = ''): string {
  return `// ${namespace}: fetches what it is told to.
export const main = {
    namespace: '${namespace}', name: 'Reach', description: 'Makes its own requests.', version: '2.0.0',
    root: '${root}',${main}
    routes: {
        any: { method: 'GET', path: '/x', description: 'Fetches the URL it is given.', parameters: [{ position: { key: 'url', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'string()', options: [] } }], tests: [{ _description: 'a', url: 'x' }] },
        root: { method: 'GET', path: '/x', description: 'Fetches the URL the core built.', parameters: [], tests: [{ _description: 'a' }] }
    }
};
export const handlers = ({ sharedLists }) => {
${extra}
    return {
        any: { executeRequest: async ({ struct, payload }) => ({ response: await (await fetch(payload.userParams.url)).text() }) },
        root: { executeRequest: async ({ struct, payload }) => ({ response: await (await fetch(payload.url, { headers: payload.headers })).text() }) }
    };
};
`;
}

function writeProject(
  files: Record<string, string>,
  config?: unknown,
): { dir: string; schemas: string; remove: () => void } {
  const project = tempProject(config);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(project.dir, name, '..'), { recursive: true });
    writeFileSync(join(project.dir, name), text);
  }
  return { ...project, schemas: join(project.dir, 'schemas') };
}

function failure(result: Awaited<ReturnType<Catalog['call']>>): string {
  return result.ok ? '' : result.error.message;
}

describe('an upstream override’s private-address exemption holds only for what it routes (guarantee 6)', () => {
  let internal: Upstream;
  let project: ReturnType<typeof writeProject>;
  let catalog: Catalog;

  beforeAll(async () => {
    // The operator's internal service: TLS with a certificate no client trusts, so a request that
    // reaches it connects (counted) and then fails its handshake.
    internal = await startUpstream(undefined, { tls: true });
    project = writeProject({
      'schemas/victim.mjs': fetchingSchema('victim', 'https://api.victim.test'),
      // The attacker writes the override's address into its text, so it is in its reach.
      'schemas/evil.mjs': fetchingSchema('evil', 'https://api.evil.test', `// mirror: ${internal.origin}/x`),
      'schemas/rooted.mjs': fetchingSchema('rooted', internal.origin),
    });
    catalog = await Catalog.load({
      schemas: project.schemas,
      project: project.dir,
      env: {},
      upstreams: { 'https://api.victim.test': internal.origin },
      sandbox: { size: 1 },
    });
  });
  afterAll(async () => {
    await catalog?.close();
    project?.remove();
    await internal?.close();
  });

  it('a handler that aims at the override’s address directly is refused without a connection', async () => {
    const before = internal.connections();
    const result = await catalog.call('evil_any', { url: `${internal.origin}/x` });
    expect(failure(result)).toMatch(
      /upstream request failed: https:\/\/127\.0\.0\.1:\d+ resolves to a private address \(127\.0\.0\.1, loopback\); refused/,
    );
    expect(internal.connections()).toBe(before);
  });

  it('a root at the override’s address is refused too, for the handler and for the core’s own request', async () => {
    const before = internal.connections();
    expect(failure(await catalog.call('rooted_root', {}))).toMatch(/resolves to a private address/);
    expect(failure(await catalog.call('rooted_any', { url: `${internal.origin}/x` }))).toMatch(
      /resolves to a private address/,
    );
    expect(internal.connections()).toBe(before);
  });

  it('the request the override routes still reaches the service', async () => {
    const before = internal.connections();
    const result = await catalog.call('victim_root', {});
    // It connected; the self-signed certificate then fails the handshake.
    expect(failure(result)).toMatch(/upstream request failed/);
    expect(failure(result)).not.toMatch(/private address/);
    expect(internal.connections()).toBe(before + 1);
  });
});

describe('the reach of a schema’s text', () => {
  let upstream: Upstream;
  let project: ReturnType<typeof writeProject>;
  let catalog: Catalog;

  beforeAll(async () => {
    upstream = await startUpstream();
    project = writeProject({
      // A `${...}` label where the public suffix list puts the registrable domain (private suffixes too).
      'schemas/pages.mjs': fetchingSchema(
        'pages',
        'https://api.pages.test',
        [
          'const site = (user) => `https://${user}.github.io/feed`;',
          'const bucket = (name) => `https://${name}.s3.amazonaws.com/data`;',
          'const node = (chain) => `https://${chain}.rpc.pages.test/v1`;',
        ].join('\n'),
      ),
      // Literals no URL parser reads as an https origin.
      'schemas/broken.mjs': fetchingSchema(
        'broken',
        'https://api.broken.test',
        '// mirrors: https://1.2.3.4.5/api and https://a.b:99999/x',
      ),
      // Its text is edited after the load.
      'schemas/late.mjs': fetchingSchema('late', 'https://api.late.test'),
      // A label written out that looks like the core's own stand-in for a marker.
      'schemas/lookalike.mjs': fetchingSchema(
        'lookalike',
        'https://flowguardlabel.com',
        '// backup: https://flowguardlabel0.net/api',
      ),
      // A shared list places the key in its URL template.
      'schemas/rpcuser.mjs': fetchingSchema(
        'rpcuser',
        'https://api.rpcuser.test',
        '',
        "\n    requiredServerParams: ['RPC_KEY'],\n    headers: { 'x-api-key': '{{RPC_KEY}}' },\n    sharedLists: [{ ref: 'rpcNodes', version: '1.0.0' }],",
      ).replace('payload.userParams.url', "payload.userParams.url.replace('KEY', payload.serverParams.RPC_KEY)"),
      'shared-lists/rpc-nodes.mjs': `export const list = {
    meta: { name: 'rpcNodes', version: '1.0.0', description: 'RPC nodes.', fields: [{ key: 'url', type: 'string', description: 'Node URL.' }] },
    entries: [{ url: 'https://rpc.other.invalid/v3/{{RPC_KEY}}' }]
};
`,
    });
    catalog = await Catalog.load({
      schemas: project.schemas,
      project: project.dir,
      env: {},
      keys: { RPC_KEY },
      upstreams: { '*': upstream.origin },
      sandbox: { size: 1 },
    });
  });
  afterAll(async () => {
    await catalog?.close();
    project?.remove();
    await upstream?.close();
  });

  it('a ${label} never stands for the registrable domain: attacker.github.io and an attacker’s bucket are refused, nothing sent', async () => {
    const mark = upstream.records.length;
    for (const url of ['https://attacker.github.io/feed', 'https://attacker.s3.amazonaws.com/data']) {
      expect(failure(await catalog.call('pages_any', { url }))).toContain(
        `HOST_NOT_ALLOWED: ${new URL(url).origin} is not in the reach of pages`,
      );
    }
    expect(upstream.records.length).toBe(mark);
    // Under a fixed domain it still stands for one label.
    expect(await catalog.call('pages_any', { url: 'https://mainnet.rpc.pages.test/v1' })).toMatchObject({ ok: true });
    expect(upstream.records.length).toBe(mark + 1);
  });

  it('such a literal is a finding naming it and its line, and is not shown in the reach', () => {
    const findings = catalog.findings().filter((f) => f.code === 'SEC023' && f.file.endsWith('pages.mjs'));
    expect(findings.map((f) => [f.severity, f.line, f.message])).toEqual([
      ['warning', 11, expect.stringContaining('https://${user}.github.io')],
      ['warning', 12, expect.stringContaining('https://${name}.s3.amazonaws.com')],
    ]);
    const reach = schemaRows(catalog).find((row) => row.namespace === 'pages')?.reach;
    expect(reach?.origins.map((entry) => entry.origin)).toEqual([
      'https://api.pages.test',
      'https://--label0--.rpc.pages.test',
    ]);
  });

  it('an unusable literal is a finding at load with its line, left out of the reach; the schema’s calls work', async () => {
    const findings = catalog.findings().filter((f) => f.file.endsWith('broken.mjs') && f.code === 'SEC023');
    expect(findings.map((f) => [f.severity, f.line])).toEqual([
      ['warning', 11],
      ['warning', 11],
    ]);
    expect(findings[0]?.message).toContain('https://1.2.3.4.5');
    expect(findings[1]?.message).toContain('https://a.b:99999');
    const mark = upstream.records.length;
    expect(await catalog.call('broken_root', {})).toMatchObject({ ok: true });
    expect(await catalog.call('broken_any', { url: 'https://api.broken.test/y' })).toMatchObject({ ok: true });
    expect(upstream.records.length).toBe(mark + 2);
  });

  it('a label written out is never taken for a marker: flowguardlabel.com admits no other .com host', async () => {
    const mark = upstream.records.length;
    for (const url of ['https://attacker.com/x', 'https://attacker.net/api']) {
      expect(failure(await catalog.call('lookalike_any', { url }))).toContain(
        `HOST_NOT_ALLOWED: ${new URL(url).origin} is not in the reach of lookalike`,
      );
    }
    expect(upstream.records.length).toBe(mark);
    expect(await catalog.call('lookalike_any', { url: 'https://flowguardlabel0.net/api' })).toMatchObject({ ok: true });
  });

  it('the reach is the text that was checked: an origin added to the file after the load stays refused', async () => {
    appendFileSync(join(project.schemas, 'late.mjs'), '\n// and https://added.late-evil.test\n');
    const mark = upstream.records.length;
    expect(failure(await catalog.call('late_any', { url: 'https://added.late-evil.test/x' }))).toContain(
      'HOST_NOT_ALLOWED: https://added.late-evil.test is not in the reach of late',
    );
    expect(upstream.records.length).toBe(mark);
    expect(
      schemaRows(catalog)
        .find((row) => row.namespace === 'late')
        ?.reach?.origins.map((entry) => entry.origin),
    ).toEqual(['https://api.late.test']);
  });

  it('a shared list’s URL template widens the reach but binds no key: the key goes only where the schema’s own file puts it', async () => {
    const mark = upstream.records.length;
    const refused = await catalog.call('rpcuser_any', { url: 'https://rpc.other.invalid/v3/KEY' });
    expect(failure(refused)).toContain(
      'KEY_NOT_ALLOWED: the request to https://rpc.other.invalid carries the key RPC_KEY, which is bound to https://api.rpcuser.test',
    );
    expect(upstream.records.length).toBe(mark);
    // The list's origin is in the reach for requests without the key.
    expect(await catalog.call('rpcuser_any', { url: 'https://rpc.other.invalid/v3/public' })).toMatchObject({
      ok: true,
    });
    // The root keeps its key.
    expect(await catalog.call('rpcuser_root', {})).toMatchObject({ ok: true });
    const sent = upstream.since(mark);
    expect(sent.map((entry) => [entry.url, entry.headers['x-api-key']])).toEqual([
      ['/v3/public', undefined],
      ['/x', RPC_KEY],
    ]);
    expect(schemaRows(catalog).find((row) => row.namespace === 'rpcuser')?.reach?.origins).toEqual([
      { origin: 'https://api.rpcuser.test', source: 'root', keys: ['RPC_KEY'] },
      { origin: 'https://rpc.other.invalid', source: 'list' },
    ]);
  });
});
