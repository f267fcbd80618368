// `flowguard serve --group NAME`: only a verified group's tools are served; a group that does
// not verify (a tool, schema file, list or library changed since it was recorded, no content
// record, or no such group) is not served at all.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BIN,
  connectStdio,
  PROJECT,
  ROOT,
  SCHEMAS,
  serveArgs,
  spawnServe,
  startCatalogUpstream,
  type CatalogUpstream,
} from './helpers.js';

let upstream: CatalogUpstream;
let project: string;
beforeAll(async () => {
  upstream = await startCatalogUpstream();
  project = mkdtempSync(join(tmpdir(), 'flowguard-mcp-group-'));
  mkdirSync(join(project, '.flowmcp'));
  copyFileSync(join(PROJECT, '.flowmcp', 'config.json'), join(project, '.flowmcp', 'config.json'));
  const refs = ['widgets/catalog.mjs::getWidget', 'widgets/catalog.mjs::listWidgets', 'vault/notes.mjs::getNote'];
  const created = spawnSync(
    process.execPath,
    [BIN, 'group', 'create', 'shop', '--tools', refs.join(','), '--schemas', SCHEMAS, '--project', project],
    { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
  );
  expect(created.status, created.stdout + created.stderr).toBe(0);
});
afterAll(async () => {
  await upstream?.close();
  rmSync(project, { recursive: true, force: true });
});

const withProject = (dir: string, extra: string[]) =>
  serveArgs(upstream, extra).map((arg) => (arg === PROJECT ? dir : arg));

describe('flowguard serve --group', () => {
  it("serves only the group's tools that have their keys, and says so on stderr", async () => {
    const connection = await connectStdio(upstream, withProject(project, ['--transport', 'stdio', '--group', 'shop']));
    try {
      expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual([
        'widgets_getWidget',
        'widgets_listWidgets',
      ]);
      const outside = await connection.client
        .callTool({ name: 'media_getReadme', arguments: {} })
        .catch((error: unknown) => error);
      expect(outside).toBeInstanceOf(Error);
      expect(connection.stderr()).toContain(
        'flowguard: group shop: 2 of its 3 tools served; hidden for a missing key: vault_getNote',
      );
      expect(connection.stderr()).toContain('flowguard: serving 2 tools over stdio');
    } finally {
      await connection.close();
    }
  });

  it('refuses to serve a group whose tool changed since it was recorded (exit 1, GRP006), or that does not exist (GRP004)', async () => {
    const tampered = mkdtempSync(join(tmpdir(), 'flowguard-mcp-group-'));
    try {
      mkdirSync(join(tampered, '.flowmcp'));
      const file = JSON.parse(readFileSync(join(project, '.flowmcp', 'groups.json'), 'utf8')) as {
        groups: { shop: { toolHashes: Record<string, string> } };
      };
      file.groups.shop.toolHashes['widgets/catalog.mjs::getWidget'] = `sha256:${'0'.repeat(64)}`;
      writeFileSync(join(tampered, '.flowmcp', 'groups.json'), JSON.stringify(file, null, 2));
      const changed = spawnServe(withProject(tampered, ['--transport', 'stdio', '--group', 'shop']));
      expect(await changed.exited).toBe(1);
      expect(changed.stderr()).toContain("flowguard: group 'shop' cannot be served");
      expect(changed.stderr()).toMatch(/^ {2}GRP006 error /m);
      const unknown = spawnServe(withProject(project, ['--transport', 'stdio', '--group', 'nope']));
      expect(await unknown.exited).toBe(1);
      expect(unknown.stderr()).toMatch(/GRP004 error .*no group named 'nope'/);
      // The finding's hint is the way on: the groups the file has.
      expect(unknown.stderr()).toMatch(/^ {6}hint: groups in this file: shop$/m);
    } finally {
      rmSync(tampered, { recursive: true, force: true });
    }
  });

  it('refuses a group recorded without a content record (exit 1, GRP009), printing the exact command that records it again', async () => {
    const older = mkdtempSync(join(tmpdir(), 'flowguard-mcp-group-'));
    try {
      mkdirSync(join(older, '.flowmcp'));
      const file = JSON.parse(readFileSync(join(project, '.flowmcp', 'groups.json'), 'utf8')) as {
        groups: { shop: Record<string, unknown> };
      };
      delete file.groups.shop.contentHash;
      delete file.groups.shop.content;
      writeFileSync(join(older, '.flowmcp', 'groups.json'), JSON.stringify(file, null, 2));
      const refused = spawnServe(withProject(older, ['--transport', 'stdio', '--group', 'shop']));
      expect(await refused.exited).toBe(1);
      expect(refused.stderr()).toMatch(/^ {2}GRP009 error .*groups\.shop: the group has no content record/m);
      expect(refused.stderr()).toContain(
        `flowguard: once the change is reviewed, record the group again: flowguard group create shop --force --schemas ${SCHEMAS} --project ${older}\n`,
      );
      expect(refused.stderr()).not.toContain('serving');
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  });
});
