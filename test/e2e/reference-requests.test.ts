// Issue 14, point 6: requests as the reference runtime sends them, where it is right. Real
// catalog, real sandbox, and a loopback server that records the raw header lines (Node's
// parsed `headers` keeps only one of two content-types, so the raw list is what is checked).

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { tempProject } from '../kit/project.js';
import { startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';
import { ROOT, startBehaving, type BehavingUpstream } from './helpers.js';

const SCHEMAS = join(ROOT, 'test', 'fixtures', 'requests');

let server: BehavingUpstream;
/** Answers formats.example.test: markdown, RSS and raw bytes, by path. */
let formats: Upstream;
let catalog: Catalog;
const project = tempProject();

const BLOB = Buffer.from([0x00, 0xff, 0x10, 0x80]);
const FORMAT_ANSWERS: Record<string, [contentType: string, body: string | Buffer]> = {
  '/docs.md': ['text/markdown; charset=utf-8', '# Title\n\n*words*'],
  '/feed.rss': ['application/rss+xml', '<rss><channel><title>n</title></channel></rss>'],
  '/blob': ['application/octet-stream', BLOB],
};

beforeAll(async () => {
  [server, formats] = await Promise.all([
    startBehaving(),
    startUpstream((_req, res, entry) => {
      const [type, body] = FORMAT_ANSWERS[entry.url] ?? ['text/plain', 'unknown path'];
      res.writeHead(200, { 'content-type': type }).end(body);
    }),
  ]);
  const upstreams = { '*': server.origin, 'https://formats.example.test': formats.origin };
  catalog = await Catalog.load({ schemas: SCHEMAS, project: project.dir, env: {}, upstreams, sandbox: { size: 1 } });
  expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await Promise.all([server?.close(), formats?.close()]);
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
    expect(await catalog.call('bodies_readText', {})).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'text', value: 'plain words, not JSON' },
      requests: [expect.objectContaining({ status: 200 })],
    });
  });
});

describe('the output mime types of the public catalogs', () => {
  it('serves text/markdown and application/rss+xml routes as text, application/octet-stream as binary', async () => {
    expect(await catalog.call('formats_getDocs', {})).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'text', value: '# Title\n\n*words*' },
      requests: [expect.objectContaining({ status: 200 })],
    });
    expect(await catalog.call('formats_getFeed', {})).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'text', value: '<rss><channel><title>n</title></channel></rss>' },
      requests: [expect.objectContaining({ status: 200 })],
    });
    expect(await catalog.call('formats_getBlob', {})).toEqual({
      ok: true,
      status: 200,
      content: { kind: 'binary', mimeType: 'application/octet-stream', base64: BLOB.toString('base64') },
      requests: [expect.objectContaining({ status: 200 })],
    });
  });
});
