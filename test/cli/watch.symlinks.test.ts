// Attacks `serve --watch`'s watcher (src/cli/watch.ts) with links in the schemas folder. A link
// is no schema file (promise 2: nothing is read through one), so the watcher must not follow it
// either: a link to a folder outside (`/`, a home folder) would have it watch and crawl that whole
// tree, one inotify watch per folder and file, without bound, and reload on every change there.
// Counted from outside, in this process's inotify watches (integration tier: a process of its own).

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LiveCatalog } from '../../src/mcp/live-catalog.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { watchCatalog, type CatalogWatch } from '../../src/cli/watch.js';
import { createLogger } from '../../src/observe/logger.js';
import { makeProject, ORIGIN, shopSchema, type Project } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';

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

let project: Project | undefined;
let outside: string | undefined;
let watcher: CatalogWatch | undefined;
let live: LiveCatalog<Catalog> | undefined;
afterEach(async () => {
  await watcher?.close();
  await live?.close();
  project?.remove();
  if (outside) rmSync(outside, { recursive: true, force: true });
});

const names = (catalog: Catalog) => catalog.visibleTools().map((tool) => tool.name);

it.skipIf(process.platform !== 'linux')(
  'links to a tree outside the schemas folder add no watches: a link in place of a file, and a link to a folder',
  async () => {
    // A tree outside: 200 folders of 3 files, and a schema file of its own.
    outside = mkdtempSync(join(tmpdir(), 'flowguard-outside-'));
    for (let folder = 0; folder < 200; folder += 1) {
      mkdirSync(join(outside, `folder${folder}`));
      for (let file = 0; file < 3; file += 1) writeFileSync(join(outside, `folder${folder}`, `file${file}.mjs`), '');
    }
    writeFileSync(join(outside, 'elsewhere.mjs'), shopSchema([{ name: 'getElsewhere', path: '/elsewhere' }]));
    project = makeProject({
      'items.mjs': shopSchema([{ name: 'getItem', path: '/item' }]),
      'more.mjs': shopSchema([{ name: 'getMore', path: '/more' }]).replace("namespace: 'shop'", "namespace: 'more'"),
    });
    const schemas = project.schemas;
    const load = (previous?: Catalog) =>
      Catalog.load({ schemas, project: project?.dir, upstreams: { [ORIGIN]: 'http://127.0.0.1:9' }, previous });
    live = new LiveCatalog(await load());
    const current = live;
    expect(names(current.current).sort()).toEqual(['more_getMore', 'shop_getItem']);
    const before = inotifyWatches();
    watcher = await watchCatalog(live, {
      paths: [schemas],
      load,
      logger: createLogger({ level: 'warn', destination: { write: () => undefined } }),
      debounceMs: 20,
    });
    const watching = inotifyWatches() - before;

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
  project = makeProject({ 'items.mjs': shopSchema([{ name: 'getItem', path: '/item' }]) });
  outside = mkdtempSync(join(tmpdir(), 'flowguard-link-'));
  const schemas = join(outside, 'schemas');
  symlinkSync(project.schemas, schemas);
  const load = (previous?: Catalog) =>
    Catalog.load({ schemas, project: project?.dir, upstreams: { [ORIGIN]: 'http://127.0.0.1:9' }, previous });
  live = new LiveCatalog(await load());
  const current = live;
  watcher = await watchCatalog(live, {
    paths: [schemas],
    load,
    logger: createLogger({ level: 'warn', destination: { write: () => undefined } }),
    debounceMs: 20,
  });
  writeFileSync(join(project.schemas, 'shop', 'items.mjs'), shopSchema([{ name: 'getEdited', path: '/edited' }]));
  expect(await waitFor(() => names(current.current).join() === 'shop_getEdited', 15_000)).toBe(true);
});
