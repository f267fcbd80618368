// The pieces of a reload in process, with real catalogs over real files and a loopback upstream:
// Catalog.load's `previous` keeps the last good version of a file whose new text has errors, and
// LiveCatalog closes a swapped-out catalog only after the calls running on it have settled.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LiveCatalog } from '../../src/mcp/live-catalog.js';
import { Catalog } from '../../src/runtime/catalog.js';
import { makeProject, ORIGIN, shopSchema, startHeldUpstream, type HeldUpstream, type Project } from './helpers.js';
import { waitFor } from '../support/wait.js';

let upstream: HeldUpstream;
let project: Project;
const open: Catalog[] = [];

beforeAll(async () => {
  upstream = await startHeldUpstream();
});
afterAll(() => upstream.close());
afterEach(async () => {
  try {
    await Promise.all(open.splice(0).map((catalog) => catalog.close()));
  } finally {
    project?.remove();
  }
});

/** A catalog the test's holder closes: afterEach must not close it again. */
function closedByHolder(...catalogs: Catalog[]): void {
  for (const catalog of catalogs) open.splice(open.indexOf(catalog), 1);
}

async function load(previous?: Catalog): Promise<Catalog> {
  const catalog = await Catalog.load({
    schemas: project.schemas,
    project: project.dir,
    upstreams: { [ORIGIN]: upstream.url },
    previous,
  });
  open.push(catalog);
  return catalog;
}

const ITEM = { name: 'getItem', path: '/items' };
const HELD = { name: 'getHeld', path: '/held' };

describe('Catalog.load with the catalog it replaces', () => {
  it('keeps serving the last good version of a file whose new text does not parse, and reports why', async () => {
    project = makeProject({ 'items.mjs': shopSchema([ITEM]) });
    const first = await load();
    project.write('items.mjs', shopSchema([ITEM, { name: 'getOther', path: '/other' }], { broken: true }));

    const next = await load(first);
    expect(next.tool('shop_getItem')).toBeDefined();
    expect(next.tool('shop_getOther')).toBeUndefined();
    const report = next.schemaReports.find((entry) => entry.file.endsWith('items.mjs'));
    expect(report?.lastGood).toBe(true);
    expect(report?.findings.some((finding) => finding.severity === 'error')).toBe(true);
    const result = await next.call('shop_getItem', {});
    expect(result.ok && 'content' in result ? result.content : result).toMatchObject({
      kind: 'json',
      value: { path: '/items' },
    });

    // Without the previous catalog the same text serves nothing: the file is rejected.
    const fresh = await load();
    expect(fresh.tool('shop_getItem')).toBeUndefined();
  });

  it('keeps the last good version of a file when an edit breaks one of its routes', async () => {
    project = makeProject({ 'items.mjs': shopSchema([ITEM, { name: 'getOther', path: '/other' }]) });
    const first = await load();
    // A method that is no HTTP method: an error that drops that route only, on a fresh load.
    project.write(
      'items.mjs',
      shopSchema([ITEM, { name: 'getOther', path: '/other-v2' }]).replace(
        "getOther: { method: 'GET'",
        "getOther: { method: 'FETCH'",
      ),
    );
    expect((await load()).tool('shop_getOther')).toBeUndefined();

    const next = await load(first);
    const result = await next.call('shop_getOther', {});
    expect(result.ok && 'content' in result ? result.content : result).toMatchObject({
      kind: 'json',
      value: { path: '/other' },
    });
    expect(next.schemaReports[0]?.lastGood).toBe(true);
  });

  it('takes the new version of a file once it checks without errors, and drops a deleted file', async () => {
    project = makeProject({
      'items.mjs': shopSchema([ITEM]),
      'extra.mjs': shopSchema([{ name: 'getExtra', path: '/extra' }]).replace("'shop'", "'extra'"),
    });
    const first = await load();
    expect(first.tool('extra_getExtra')).toBeDefined();
    project.write('items.mjs', shopSchema([ITEM, { name: 'getOther', path: '/other' }]));
    project.write('extra.mjs', '');
    const { rmSync } = await import('node:fs');
    rmSync(`${project.schemas}/shop/extra.mjs`);

    const next = await load(first);
    expect(next.tool('shop_getOther')).toBeDefined();
    expect(next.tool('extra_getExtra')).toBeUndefined();
    expect(next.schemaReports.some((report) => report.lastGood)).toBe(false);
  });
});

// An eleventh review: the operator's word holds on a reload. A library taken off the allowlist
// (`security.allowedLibraries`, read again with each reload) made the unchanged file fail its
// check, and the last good version, which loads that library, went on being served with it.
describe('Catalog.load with the catalog it replaces, after the operator took a library back', () => {
  const LIBRARY_SCHEMA = shopSchema([ITEM]).replace(
    "    tags: ['test'],",
    "    tags: ['test'],\n    requiredLibraries: ['fakelib'],",
  );
  const HANDLERS = `
export const handlers = ({ libraries }) => ({
  getItem: { postRequest: async ({ response }) => ({ response: { ...response, answer: libraries.fakelib.answer } }) }
})
`;
  const allowing = (libraries: string[]) =>
    writeFileSync(
      join(project.dir, '.flowmcp', 'config.json'),
      JSON.stringify({ security: { allowedLibraries: libraries } }),
    );

  beforeEach(() => {
    project = makeProject({ 'items.mjs': LIBRARY_SCHEMA + HANDLERS });
    mkdirSync(join(project.dir, 'node_modules', 'fakelib'), { recursive: true });
    writeFileSync(
      join(project.dir, 'node_modules', 'fakelib', 'package.json'),
      JSON.stringify({ name: 'fakelib', version: '1.0.0', main: 'index.js' }),
    );
    writeFileSync(join(project.dir, 'node_modules', 'fakelib', 'index.js'), 'module.exports = { answer: 42 };\n');
    mkdirSync(join(project.dir, '.flowmcp'), { recursive: true });
    allowing(['fakelib']);
  });

  it.each([
    ['the file unchanged', () => undefined],
    ['the file edited into errors too', () => project.write('items.mjs', `${LIBRARY_SCHEMA},,, oops${HANDLERS}`)],
  ])('%s: its tools go, and no call runs the library any more', async (_case, edit) => {
    const first = await load();
    const before = await first.call('shop_getItem', {});
    expect(before.ok && 'content' in before ? before.content : before).toMatchObject({ value: { answer: 42 } });
    allowing([]);
    edit();
    const next = await load(first);
    expect(next.tool('shop_getItem')).toBeUndefined();
    const report = next.schemaReports.find((entry) => entry.file.endsWith('items.mjs'));
    expect(report?.lastGood).toBeUndefined();
    expect(report?.findings.some((finding) => finding.severity === 'error')).toBe(true);
    const after = await next.call('shop_getItem', {});
    expect(JSON.stringify(after)).not.toContain('42');
  });
});

describe('LiveCatalog', () => {
  it('finishes a call on the catalog it started on, and closes that catalog only after the call settles', async () => {
    project = makeProject({ 'items.mjs': shopSchema([ITEM, HELD]) });
    const first = await load();
    let firstClosed = false;
    const closeFirst = first.close.bind(first);
    first.close = async () => {
      firstClosed = true;
      await closeFirst();
    };
    const live = new LiveCatalog(first);
    let heard = 0;
    live.onToolsChanged(() => (heard += 1));

    const call = live.use((catalog) => catalog.call('shop_getHeld', {}));
    expect(await waitFor(() => upstream.held() === 1, 10_000)).toBe(true);
    project.write('items.mjs', shopSchema([ITEM]));
    const next = await load(first);
    const retired = live.swap(next);

    expect(live.current).toBe(next);
    expect(heard).toBe(1);
    expect(live.current.tool('shop_getHeld')).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(firstClosed).toBe(false);

    upstream.release();
    const result = await call;
    expect(result.ok && 'content' in result ? result.content : result).toMatchObject({
      kind: 'json',
      value: { path: '/held' },
    });
    await retired;
    expect(firstClosed).toBe(true);
    await live.close();
    closedByHolder(first, next);
  });

  it("forwards the current catalog's own tool changes only while someone listens, and a holder around a caller's catalog closes nothing", async () => {
    project = makeProject({ 'items.mjs': shopSchema([ITEM]) });
    const catalog = await load();
    const listening = (catalog as unknown as { toolListeners: Set<unknown> }).toolListeners;
    const fixed = LiveCatalog.of(catalog);
    expect(LiveCatalog.of(fixed)).toBe(fixed);
    const stop = fixed.onToolsChanged(() => undefined);
    expect(listening.size).toBe(1);
    stop();
    expect(listening.size).toBe(0);

    let closed = false;
    const next = await load();
    const realClose = next.close.bind(next);
    next.close = async () => {
      closed = true;
    };
    const holder = LiveCatalog.of(next);
    await holder.swap(catalog);
    await holder.close();
    expect(closed).toBe(false);
    next.close = realClose;
  });
});
