// Issue 14, point 6: requests as the reference runtime sends them, where it is right. Real
// catalog, real sandbox, and a loopback server that records the raw header lines (Node's
// parsed `headers` keeps only one of two content-types, so the raw list is what is checked).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/load.js';
import { ROOT, RecordingServer, tempProject, type RecordEntry } from './helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'requests');

let server: RecordingServer;
let catalog: Catalog;
const project = tempProject();

beforeAll(async () => {
  server = await RecordingServer.start();
  catalog = await Catalog.load({ schemas: SCHEMAS, project: project.dir, env: {}, upstreams: { '*': server.origin }, sandbox: { size: 1 } });
  expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await server?.close();
  project.remove();
});

/** Calls the tool and returns the one request the server received for it. */
async function sent(name: string, args: Record<string, unknown> = {}): Promise<RecordEntry> {
  const mark = server.records.length;
  const result = await catalog.call(name, args);
  expect(result.ok, JSON.stringify(result)).toBe(true);
  const received = server.records.slice(mark);
  expect(received).toHaveLength(1);
  return received[0] as RecordEntry;
}

/** The header lines named `name` in any letter case, as `Name: value`. */
function lines(entry: RecordEntry, name: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < entry.rawHeaders.length; i += 2) {
    if (entry.rawHeaders[i]?.toLowerCase() === name) found.push(`${entry.rawHeaders[i]}: ${entry.rawHeaders[i + 1]}`);
  }
  return found;
}

describe('header names in any letter case', () => {
  it("sends the schema's Content-Type once, as the schema spells it, on a POST with a body", async () => {
    const entry = await sent('spelled_createThing', { name: 'a' });
    expect(lines(entry, 'content-type')).toEqual(['Content-Type: application/json']);
    expect(lines(entry, 'accept')).toEqual(['Accept: application/json']);
    expect(entry.body).toBe('{"name":"a"}');
  });

  it("sends the schema's headers on a GET too, with no body", async () => {
    const entry = await sent('spelled_getThing');
    expect(lines(entry, 'content-type')).toEqual(['Content-Type: application/json']);
    expect(entry.body).toBe('');
    expect(lines(entry, 'content-length')).toEqual([]);
  });
});

describe('POST bodies', () => {
  it('sends {} with content-type application/json when the route has no body parameters', async () => {
    const entry = await sent('bodies_ping');
    expect(entry.method).toBe('POST');
    expect(entry.body).toBe('{}');
    expect(lines(entry, 'content-type')).toEqual(['content-type: application/json']);
  });

  it('sends the body preRequest built as JSON, with content-type application/json', async () => {
    const entry = await sent('bodies_graphQuery', { first: 5 });
    expect(entry.body).toBe('{"query":"query($first: Int) { items(first: $first) { id } }","variables":{"first":5}}');
    expect(lines(entry, 'content-type')).toEqual(['content-type: application/json']);
  });
});

describe('postRequest returning { response: undefined }', () => {
  it('hands the answer on as it came (text stays text)', async () => {
    expect(await catalog.call('bodies_readText', {})).toEqual({ ok: true, status: 200, content: { kind: 'text', value: 'plain words, not JSON' } });
  });
});
