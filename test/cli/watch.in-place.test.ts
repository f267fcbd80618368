// Issue 27, point 3: after one reload, a file written in place (`cp` over it, `echo >>`, an
// editor that saves in place, `flowguard test --update-output`) must reload again. Node 20's
// recursive `fs.watch` lost a file once it had been replaced by a rename (an editor's atomic
// save), so the server kept answering with the old text and logged nothing. The watcher runs in
// process on a real folder; each save below is one of the ways files change on disk.

import { appendFileSync, copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { LiveCatalog } from '../../src/mcp/live-catalog.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { watchCatalog, type CatalogWatch } from '../../src/cli/watch.js';
import { createLogger } from '../../src/observe/logger.js';
import { makeProject, ORIGIN, shopSchema, type Project } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';

let project: Project;
let watcher: CatalogWatch | undefined;
let live: LiveCatalog<Catalog> | undefined;
afterEach(async () => {
  await watcher?.close();
  try {
    await live?.close();
  } finally {
    project?.remove();
  }
});

const names = (catalog: Catalog) =>
  catalog
    .visibleTools()
    .map((tool) => tool.name)
    .sort();

it('reloads on every kind of save, in place after a rename too', async () => {
  project = makeProject({ 'items.mjs': shopSchema([{ name: 'getOne', path: '/one' }]) });
  const file = join(project.schemas, 'shop', 'items.mjs');
  const load = (previous?: Catalog) =>
    Catalog.load({
      schemas: project.schemas,
      project: project.dir,
      upstreams: { [ORIGIN]: 'http://127.0.0.1:9' },
      previous,
    });
  live = new LiveCatalog(await load());
  const reloads: boolean[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: () => undefined } });
  watcher = await watchCatalog(live, {
    paths: [project.schemas],
    load,
    logger,
    debounceMs: 20,
    onReload: (swapped) => reloads.push(swapped),
  });
  const current = live;

  /** Saves with `save`, then waits until the served tools are `expected`. */
  const saved = async (save: () => void, expected: string[]) => {
    save();
    expect(
      await waitFor(() => names(current.current).join() === expected.join(), 15_000),
      `after ${reloads.length} reloads: ${names(current.current).join()}`,
    ).toBe(true);
  };

  // An editor's atomic save: a new file renamed over the old one.
  await saved(() => {
    writeFileSync(join(project.dir, 'items.mjs.swp'), shopSchema([{ name: 'getTwo', path: '/two' }]));
    renameSync(join(project.dir, 'items.mjs.swp'), file);
  }, ['shop_getTwo']);
  // Then written in place, as `>`, an editor saving in place, or --update-output do.
  await saved(() => writeFileSync(file, shopSchema([{ name: 'getThree', path: '/three' }])), ['shop_getThree']);
  // `cp` over it.
  writeFileSync(join(project.dir, 'copy.mjs'), shopSchema([{ name: 'getFour', path: '/four' }]));
  await saved(() => copyFileSync(join(project.dir, 'copy.mjs'), file), ['shop_getFour']);
  // `echo >>`: a comment appended, then a route added by rewriting in place again.
  await saved(() => {
    appendFileSync(file, '\n// appended\n');
    writeFileSync(file, shopSchema([{ name: 'getFive', path: '/five' }]));
  }, ['shop_getFive']);
});
