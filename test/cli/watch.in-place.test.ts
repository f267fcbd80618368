// Issue 27, point 3: after one reload, a file written in place (`cp` over it, `echo >>`, an
// editor that saves in place, `flowguard test --update-output`) must reload again. Node 20's
// recursive `fs.watch` lost a file once it had been replaced by a rename (an editor's atomic
// save), so the server kept answering with the old text and logged nothing. The watcher runs in
// process on a real folder; each save below is one of the ways files change on disk.

import { appendFileSync, copyFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { shopSchema } from '../reload/helpers.js';
import { waitFor } from '../support/wait.js';
import { servedNames as names, useWatchKit } from './watch-kit.js';

const kit = useWatchKit();

it('reloads on every kind of save, in place after a rename too', async () => {
  const project = kit.project({ 'items.mjs': shopSchema([{ name: 'getOne', path: '/one' }]) });
  const file = join(project.schemas, 'shop', 'items.mjs');
  const reloads: boolean[] = [];
  const { live: current } = await kit.watch({ debounceMs: 20, onReload: (swapped) => reloads.push(swapped) });

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
