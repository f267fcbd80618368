// Document shapes are checked by code generated at build time (scripts/generate.ts): reading a
// config, a shared list, groups.json and a schema, even broken ones, loads no Ajv compiler, only
// Ajv's small run-time helpers. Run in a fresh process on the built files (dist/).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '..', '..', 'dist', 'src');
const work = mkdtempSync(join(tmpdir(), 'flowguard-load-path-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('checks every kind of document without compiling a JSON Schema at run time', () => {
  mkdirSync(join(work, '.flowmcp'));
  writeFileSync(join(work, '.flowmcp', 'config.json'), '{ "sandbox": { "deadlineMs": 1 } }');
  const script = `
    import { createRequire } from 'node:module';
    const dist = ${JSON.stringify(DIST)};
    const { loadProjectConfig } = await import(dist + '/config/project.js');
    const { checkListText } = await import(dist + '/lists/check.js');
    const { parseGroupsText } = await import(dist + '/groups/groups-file.js');
    const { checkSchemaText } = await import(dist + '/schema/check.js');
    const counts = [];
    try { loadProjectConfig(${JSON.stringify(work)}); } catch (error) { counts.push(error.message.includes('sandbox.deadlineMs: must be >= 50')); }
    counts.push(checkListText('codes.mjs', 'export const list = { meta: { name: 1 }, entries: {} };').sink.findings.length > 0);
    counts.push(parseGroupsText('groups.json', '{ "specVersion": "1.0.0", "groups": { "Bad": 1 } }').groups[0].findings.length > 0);
    counts.push(checkSchemaText('x.mjs', 'export const main = { namespace: 1 };', { allowedLibraries: [] }).findings.length > 0);
    const ajv = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/ajv/'));
    process.stdout.write(JSON.stringify({ counts, ajv }));
  `;
  const { counts, ajv } = JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
  ) as { counts: boolean[]; ajv: string[] };
  expect(counts).toEqual([true, true, true, true]);
  expect(ajv.length).toBeGreaterThan(0);
  expect(ajv.filter((file) => !file.includes('/node_modules/ajv/dist/runtime/'))).toEqual([]);
});
