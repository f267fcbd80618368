// Issue 13, points 1 and 6: keys are granted by the operator, never taken by declaring them, and
// a key bound to namespaces goes into no other namespace's request; arguments too deep or too
// large are refused before anything walks them. A loopback server stands for every upstream
// (an `upstreams` override) and records what it receives.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../support/project.js';
import { startUpstream, type Upstream } from '../support/upstream.js';

const SCHEMAS = join(import.meta.dirname, '..', 'fixtures', 'grants', 'schemas');
const AWS_SECRET = 'aws-secret-value-0123456789';
const ETHERSCAN = 'etherscan-key-value-9876';

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream?.close());

async function withCatalog(
  config: unknown,
  env: Record<string, string>,
  run: (catalog: Catalog) => Promise<void>,
  dotenv?: string,
): Promise<void> {
  const project = tempProject(config);
  if (dotenv !== undefined) writeFileSync(join(project.dir, '.env'), dotenv);
  const catalog = await Catalog.load({
    schemas: SCHEMAS,
    project: project.dir,
    env,
    upstreams: { '*': upstream.origin },
    sandbox: { size: 1 },
  });
  try {
    await run(catalog);
  } finally {
    await catalog.close();
    project.remove();
  }
}

/** Everything the upstream received since `mark`, as one text. */
function receivedSince(mark: number): string {
  return JSON.stringify(upstream.since(mark));
}

describe('keys are granted, not taken', () => {
  it('a schema that declares an environment secret gets nothing: its tool is hidden and calling it sends nothing', async () => {
    await withCatalog(undefined, { AWS_SECRET_ACCESS_KEY: AWS_SECRET }, async (catalog) => {
      const mark = upstream.records.length;
      expect(catalog.tool('thief_collect')?.missingKeys).toEqual(['AWS_SECRET_ACCESS_KEY']);
      expect(catalog.visibleTools().map((tool) => tool.name)).not.toContain('thief_collect');
      const result = await catalog.call('thief_collect', {});
      expect(result).toMatchObject({ ok: false, error: { kind: 'missing-keys' } });
      expect(upstream.records.length).toBe(mark);
      expect(catalog.keyAccess('AWS_SECRET_ACCESS_KEY', 'thief')).toEqual({
        granted: false,
        reason: 'not-granted',
        fix: 'security.keys: "AWS_SECRET_ACCESS_KEY": ["thief"]',
      });
    });
  });

  it('an environment variable named in security.keys is granted and reaches the upstream', async () => {
    await withCatalog({ security: { keys: ['AWS_*'] } }, { AWS_SECRET_ACCESS_KEY: AWS_SECRET }, async (catalog) => {
      const mark = upstream.records.length;
      const result = await catalog.call('thief_collect', {});
      expect(result.ok).toBe(true);
      expect(upstream.since(mark)[0]?.headers['x-loot']).toBe(AWS_SECRET);
    });
  });

  it('a key bound to a namespace goes into no other namespace’s request, wherever its value comes from', async () => {
    for (const source of ['environment', '.env'] as const) {
      const env: Record<string, string> = source === 'environment' ? { ETHERSCAN_API_KEY: ETHERSCAN } : {};
      const dotenv = source === '.env' ? `ETHERSCAN_API_KEY=${ETHERSCAN}\n` : undefined;
      await withCatalog(
        { security: { keys: { ETHERSCAN_API_KEY: ['etherscan'] } } },
        env,
        async (catalog) => {
          const mark = upstream.records.length;
          expect((await catalog.call('etherscan_getBalance', {})).ok).toBe(true);
          expect(upstream.since(mark)[0]?.url).toContain(`apikey=${ETHERSCAN}`);
          const copycat = await catalog.call('copycat_getBalance', {});
          expect(copycat).toMatchObject({ ok: false, error: { kind: 'missing-keys' } });
          expect(upstream.records.length).toBe(mark + 1);
          expect(catalog.tool('copycat_getBalance')?.missingKeys).toEqual(['ETHERSCAN_API_KEY']);
          expect(catalog.keyAccess('ETHERSCAN_API_KEY', 'copycat')).toMatchObject({
            granted: false,
            reason: 'bound-elsewhere',
          });
        },
        dotenv,
      );
    }
  });

  it('a .env key needs no grant', async () => {
    await withCatalog(
      undefined,
      {},
      async (catalog) => {
        const mark = upstream.records.length;
        expect((await catalog.call('copycat_getBalance', {})).ok).toBe(true);
        expect(upstream.since(mark)[0]?.headers.authorization).toBe(`Bearer ${ETHERSCAN}`);
      },
      `ETHERSCAN_API_KEY=${ETHERSCAN}\n`,
    );
  });
});

describe('arguments are bounded before anything walks them', () => {
  /** `{ a: { a: ... } }` nested `depth` deep, built without recursion. */
  function nested(depth: number): Record<string, unknown> {
    let value: Record<string, unknown> = {};
    for (let level = 1; level < depth; level++) value = { a: value };
    return value;
  }

  it.each(['deep_plain', 'deep_hooked'])(
    '%s: an argument nested 5,000 deep is an arguments error naming the bound, and nothing is sent',
    async (tool) => {
      await withCatalog(undefined, {}, async (catalog) => {
        const mark = upstream.records.length;
        const result = await catalog.call(tool, { filter: nested(5000) });
        expect(result).toEqual({
          ok: false,
          error: {
            kind: 'arguments',
            message: 'invalid arguments: nested deeper than 64 levels (limits.maxArgumentDepth)',
          },
        });
        expect(upstream.records.length).toBe(mark);
        // The catalog still serves: the same tool with a sane argument works.
        expect((await catalog.call(tool, { filter: nested(5) })).ok).toBe(true);
      });
    },
  );

  it('arguments larger than limits.maxArgumentBytes are refused; the limits come from the config', async () => {
    await withCatalog({ limits: { maxArgumentBytes: 2048, maxArgumentDepth: 3 } }, {}, async (catalog) => {
      const mark = upstream.records.length;
      expect(await catalog.call('deep_plain', { filter: { text: 'x'.repeat(4096) } })).toMatchObject({
        ok: false,
        error: { message: 'invalid arguments: larger than 2048 bytes (limits.maxArgumentBytes)' },
      });
      expect(await catalog.call('deep_plain', { filter: nested(4) })).toMatchObject({
        ok: false,
        error: { message: 'invalid arguments: nested deeper than 3 levels (limits.maxArgumentDepth)' },
      });
      expect(upstream.records.length).toBe(mark);
      expect(receivedSince(mark)).toBe('[]');
    });
  });
});
