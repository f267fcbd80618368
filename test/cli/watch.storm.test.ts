// Attacks `serve --watch` (src/cli/watch.ts) with a large folder and a storm of changes: 5,000
// small schema files, 100 writes to one file as fast as the disk takes them, a file deleted and
// written again while a load reads the folder, and a shared list changed under the schema that
// uses it. The served catalog must always be one a load checked, nothing may throw, and the
// watcher's work stays bounded: changes during a load lead to one more load, not one per change.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { Catalog } from '../../src/runtime/catalog.js';
import { shopSchema } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';
import { servedNames, useWatchKit } from './watch-kit.js';

const kit = useWatchKit();

const BULK = 5000;
const shopTools = (catalog: Catalog) => servedNames(catalog).filter((name) => name.startsWith('shop_'));
/** `index` in letters (a namespace is letters only): 0 is `a`, 26 is `ba`. */
const letters = (index: number): string =>
  (index >= 26 ? letters(Math.floor(index / 26)) : '') + String.fromCharCode(97 + (index % 26));
/** Version `index` of the file the storm writes: one tool, named after the version. */
const version = (index: number) => shopSchema([{ name: `getV${index}`, path: `/v${index}` }]);

it('5,000 files and 100 writes to one: few loads, every catalog served one that was checked, the last write served', async () => {
  const project = kit.project({
    'items.mjs': version(0),
    'other.mjs': shopSchema([{ name: 'getOther', path: '/other' }]),
  });
  const schemas = project.schemas;
  const bulk = join(schemas, 'bulk');
  mkdirSync(bulk);
  for (let index = 0; index < BULK; index += 1)
    writeFileSync(
      join(bulk, `tiny${index}.mjs`),
      shopSchema([{ name: 'getTiny', path: '/tiny' }]).replace(
        "namespace: 'shop'",
        `namespace: 'tiny${letters(index)}'`,
      ),
    );
  const served: string[][] = [];
  const { live: current, loads } = await kit.watch({
    debounceMs: 20,
    onReload: () => served.push(shopTools(current.current)),
  });
  expect(current.current.visibleTools()).toHaveLength(BULK + 2);
  const loadsBefore = loads();

  const items = join(schemas, 'shop', 'items.mjs');
  const other = join(schemas, 'shop', 'other.mjs');
  for (let index = 1; index <= 100; index += 1) {
    writeFileSync(items, version(index));
    // A file deleted and written again, over and over, while loads read the folder.
    if (index % 10 === 0) rmSync(other);
    if (index % 10 === 5) writeFileSync(other, shopSchema([{ name: 'getOther', path: '/other' }]));
    // Now and then the storm waits for a load to start, so that writes land during one.
    if (index % 25 === 0) await waitFor(() => loads() > loadsBefore + index / 25 - 1, 15_000);
  }
  writeFileSync(other, shopSchema([{ name: 'getOther', path: '/other' }]));
  expect(
    await waitFor(() => shopTools(current.current).join() === 'shop_getOther,shop_getV100', 60_000),
    `served: ${shopTools(current.current).join()}`,
  ).toBe(true);
  // Every catalog served holds one version of the file that a load checked, never a half-written one.
  for (const tools of served) {
    const versions = tools.filter((name) => name.startsWith('shop_getV'));
    expect(versions, tools.join()).toHaveLength(1);
  }
  // Changes during a load make one more load: far fewer loads than the 110 changes.
  expect(loads() - loadsBefore, `${loads() - loadsBefore} loads`).toBeLessThanOrEqual(20);
  expect(current.current.visibleTools()).toHaveLength(BULK + 2);
}, 120_000);

// An eleventh review: the reload waits for a quiet moment, and a folder that never goes quiet (a
// file written every 20 ms, by a tool or an attacker) held it off for as long as the writes went
// on: a file the operator deleted kept its tools served. A stream of changes still reloads.
it('a stream of changes that never pauses still reloads: a deleted file stops being served while the writes go on', async () => {
  const project = kit.project({
    'items.mjs': version(0),
    'other.mjs': shopSchema([{ name: 'getOther', path: '/other' }]),
  });
  const { live } = await kit.watch({ debounceMs: 500 });
  expect(shopTools(live.current)).toEqual(['shop_getOther', 'shop_getV0']);
  rmSync(join(project.schemas, 'shop', 'other.mjs'));
  const noise = join(project.schemas, 'shop', 'noise.txt');
  let gone = false;
  for (let round = 0; round < 400 && !gone; round += 1) {
    writeFileSync(noise, String(round));
    await new Promise((resolve) => setTimeout(resolve, 20));
    gone = !shopTools(live.current).includes('shop_getOther');
  }
  expect(gone, 'the deleted file was still served after 400 writes 20 ms apart').toBe(true);
}, 60_000);
