// The watcher of `serve --watch` in process, on real folders: a shared list edited below the
// lists folder reloads the catalog, and the tool that reads the list offers the new entry.

import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { createLogger } from '../../src/observe/logger.js';
import { shopSchema } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';
import { useWatchKit } from './watch-kit.js';

const kit = useWatchKit();

function colourList(names: readonly string[]): string {
  return [
    'export const list = {',
    "    meta: { name: 'colours', version: '2.0.0', description: 'Colours.', fields: [{ key: 'name', type: 'string', description: 'The name.' }] },",
    `    entries: [${names.map((name) => `{ name: '${name}' }`).join(', ')}]`,
    '}',
    '',
  ].join('\n');
}

/** The `colour` argument's allowed values of the tool that reads the list. */
function offered(catalog: Catalog): unknown {
  const schema = catalog.tool('shop_getPaint')?.input.schema as
    { properties?: { colour?: { enum?: unknown } } } | undefined;
  return schema?.properties?.colour?.enum;
}

const PAINT = shopSchema([{ name: 'getPaint', path: '/paint' }])
  .replace('    routes: {', "    sharedLists: [{ ref: 'colours', version: '2.0.0' }],\n    routes: {")
  .replace(
    'parameters: []',
    "parameters: [{ position: { key: 'colour', value: '{{USER_PARAM}}', location: 'query' }, z: { primitive: 'enum({{colours:name}})', options: [] } }]",
  );

it('reloads when a shared list changes, and swaps in a catalog whose tool offers the new entry', async () => {
  const project = kit.project({ 'paint.mjs': PAINT });
  const lists = join(project.dir, 'shared-lists');
  mkdirSync(lists);
  writeFileSync(join(lists, 'colours.mjs'), colourList(['red', 'green']));
  const lines: string[] = [];
  const reloads: boolean[] = [];
  const { live } = await kit.watch({
    paths: [project.schemas, lists],
    logger: createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(line) } }),
    onReload: (swapped) => reloads.push(swapped),
  });
  expect(offered(live.current)).toEqual(['red', 'green']);
  writeFileSync(join(lists, 'colours.mjs'), colourList(['red', 'green', 'blue']));

  expect(await waitFor(() => reloads.includes(true), 15_000), lines.join('\n')).toBe(true);
  expect(offered(live.current)).toEqual(['red', 'green', 'blue']);
  expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ level: 30, msg: 'reloaded', tools: 1 });
});

it('a list broken under its loaded schema, then swapped for a link to a list outside: every catalog served was checked, and nothing is read through the link', async () => {
  const project = kit.project({ 'paint.mjs': PAINT });
  const lists = join(project.dir, 'shared-lists');
  mkdirSync(lists);
  const colours = join(lists, 'colours.mjs');
  writeFileSync(colours, colourList(['red', 'green']));
  const outside = kit.outside('flowguard-outside-list-');
  writeFileSync(join(outside, 'colours.mjs'), colourList(['red', 'green', 'purple']));
  const served: unknown[] = [];
  let reloads = 0;
  const { live: current } = await kit.watch({
    paths: [project.schemas, lists],
    debounceMs: 20,
    onReload: () => {
      reloads += 1;
      served.push(offered(current.current));
    },
  });
  writeFileSync(colours, colourList(['red', 'green']).replace('entries:', ',,, entries:'));
  expect(await waitFor(() => reloads >= 1, 15_000)).toBe(true);
  unlinkSync(colours);
  symlinkSync(join(outside, 'colours.mjs'), colours);
  expect(await waitFor(() => reloads >= 2, 15_000)).toBe(true);
  // The tool keeps the list its load checked last (or would be hidden with findings); the
  // outside list's entry is never offered.
  for (const values of [...served, offered(current.current)])
    expect([undefined, JSON.stringify(['red', 'green'])]).toContain(
      values === undefined ? undefined : JSON.stringify(values),
    );
  expect(JSON.stringify(served)).not.toContain('purple');
});
