// Attacks `serve --watch`'s watcher (src/cli/watch.ts) with links in the schemas folder. A link
// is no schema file (promise 2: nothing is read through one), so the watcher must not follow it
// either: a link to a folder outside (`/`, a home folder) would have it watch and crawl that whole
// tree, one inotify watch per folder and file, without bound, and reload on every change there.
// Counted from outside, in this process's inotify watches (integration tier: a process of its own).

import { mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { shopSchema } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';
import { servedNames as names, useWatchKit } from './watch-kit.js';

/** The inotify watches this process holds (Linux: one per watched folder or file). */
function inotifyWatches(): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      count += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('inotify wd:')).length;
    } catch {
      // A descriptor closed while we looked: it holds no watch now.
    }
  }
  return count;
}

const kit = useWatchKit();

it.skipIf(process.platform !== 'linux')(
  'links to a tree outside the schemas folder add no watches: a link in place of a file, and a link to a folder',
  async () => {
    // A tree outside: 200 folders of 3 files, and a schema file of its own.
    const outside = kit.outside('flowguard-outside-');
    for (let folder = 0; folder < 200; folder += 1) {
      mkdirSync(join(outside, `folder${folder}`));
      for (let file = 0; file < 3; file += 1) writeFileSync(join(outside, `folder${folder}`, `file${file}.mjs`), '');
    }
    writeFileSync(join(outside, 'elsewhere.mjs'), shopSchema([{ name: 'getElsewhere', path: '/elsewhere' }]));
    const project = kit.project({
      'items.mjs': shopSchema([{ name: 'getItem', path: '/item' }]),
      'more.mjs': shopSchema([{ name: 'getMore', path: '/more' }]).replace("namespace: 'shop'", "namespace: 'more'"),
    });
    const schemas = project.schemas;
    const before = inotifyWatches();
    const { live: current } = await kit.watch({ debounceMs: 20 });
    const watching = inotifyWatches() - before;
    expect(names(current.current)).toEqual(['more_getMore', 'shop_getItem']);

    // A file replaced by a link to a schema file outside, and a link to the folder beside it.
    const items = join(schemas, 'shop', 'items.mjs');
    unlinkSync(items);
    symlinkSync(join(outside, 'elsewhere.mjs'), items);
    symlinkSync(outside, join(schemas, 'linked'));
    // The served catalog is one that was checked: the link is no schema file, and is not read.
    expect(await waitFor(() => names(current.current).join() === 'more_getMore', 15_000)).toBe(true);
    const added = inotifyWatches() - before - watching;
    // Following the links: 200 folders and 601 files outside, 800 watches more.
    expect(added, `watches: ${watching} while watching, ${added} more after the links`).toBeLessThanOrEqual(5);
  },
  30_000,
);

it('a schemas folder the operator names through a link is watched where it points: an edit there reloads', async () => {
  const project = kit.project({ 'items.mjs': shopSchema([{ name: 'getItem', path: '/item' }]) });
  const schemas = join(kit.outside('flowguard-link-'), 'schemas');
  symlinkSync(project.schemas, schemas);
  const { live: current } = await kit.watch({ schemas, debounceMs: 20 });
  writeFileSync(join(project.schemas, 'shop', 'items.mjs'), shopSchema([{ name: 'getEdited', path: '/edited' }]));
  expect(await waitFor(() => names(current.current).join() === 'shop_getEdited', 15_000)).toBe(true);
});
