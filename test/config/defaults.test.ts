// The defaults of the config's settings (src/config/defaults.ts) are the `default`s its JSON
// Schema states, every one of them a value the schema accepts, and the config that gives none of
// them reads as the config that gives them all.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CONFIG_SHAPE } from '../../src/config/config-shape.js';
import { CONFIG_DEFAULTS } from '../../src/config/defaults.js';
import { loadProjectConfig } from '../../src/config/project.js';

const root = mkdtempSync(join(tmpdir(), 'flowguard-config-defaults-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Node = { properties?: Record<string, Node>; default?: unknown };

/** `[path, value]` of every `default` a schema states, depth first. */
function statedDefaults(node: Node, path: string[] = []): Array<[string, unknown]> {
  const own: Array<[string, unknown]> = 'default' in node ? [[path.join('.'), node.default]] : [];
  return [
    ...own,
    ...Object.entries(node.properties ?? {}).flatMap(([key, child]) => statedDefaults(child, [...path, key])),
  ];
}

function leaves(value: object, path: string[] = []): Array<[string, unknown]> {
  return Object.entries(value).flatMap(([key, child]) =>
    typeof child === 'object' && child !== null
      ? leaves(child as object, [...path, key])
      : [[[...path, key].join('.'), child] as [string, unknown]],
  );
}

function projectWith(name: string, config: unknown): string {
  const dir = join(root, name);
  mkdirSync(join(dir, '.flowmcp'), { recursive: true });
  writeFileSync(join(dir, '.flowmcp', 'config.json'), JSON.stringify(config));
  return dir;
}

it('states every default of the table in the schema, and no other', () => {
  expect(new Map(statedDefaults(CONFIG_SHAPE as Node))).toEqual(new Map(leaves(CONFIG_DEFAULTS)));
});

it('accepts a config that gives every default, and reads it as the config that gives none', () => {
  const given = loadProjectConfig(projectWith('all', CONFIG_DEFAULTS));
  const none = loadProjectConfig(projectWith('none', {}));
  expect(given.network).toEqual(none.network);
  expect(given.audit).toMatchObject({ enabled: none.audit.enabled, dir: CONFIG_DEFAULTS.audit.dir });
  expect(given.cache).toMatchObject({ enabled: none.cache.enabled, ttlSeconds: none.cache.ttlSeconds });
  expect(given.output).toEqual(none.output);
  expect(given.discovery.tools).toBe(none.discovery.tools);
});
