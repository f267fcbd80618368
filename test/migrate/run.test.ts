// A migrated 1.2.0 file does what it did: the new file, written by migrate, loaded by the real
// catalog with its handlers in the sandbox, called against a loopback upstream that records
// every request as it arrives.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../src/runtime/catalog.js';
import { migrateFile } from '../../src/migrate/migrate-file.js';
import { startUpstream, type RecordEntry, type Upstream } from '../support/upstream.js';

const KEY = 'relay-key-5f1c';
const work = mkdtempSync(join(tmpdir(), 'flowguard-migrate-run-'));
let server: Upstream;
let catalog: Catalog;

/** The upstream: GraphQL answers for POST, a thing or an error for GET /things/<id>. */
const ANSWERS: Record<string, unknown> = {
  'POST /graphql': { data: { things: [{ id: 1, name: 'a' }] } },
  'GET /things/t-7': { id: 't-7' },
  'GET /things/t-9': { error: 'gone' },
};

beforeAll(async () => {
  const migrated = migrateFile(
    join(import.meta.dirname, '..', 'fixtures', 'migrate', 'relay.mjs'),
    join(work, 'schemas', 'relay.mjs'),
  );
  expect(migrated.written).toBe(true);
  server = await startUpstream((_req, res, entry) => {
    const answer = ANSWERS[`${entry.method} ${entry.url.split('?')[0]}`] ?? { unexpected: entry.url };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  catalog = await Catalog.load({
    schemas: join(work, 'schemas'),
    project: work,
    env: {},
    keys: { RELAY_KEY: KEY },
    upstreams: { '*': server.origin },
    sandbox: { size: 1 },
  });
  expect(catalog.findings().filter((f) => f.severity === 'error')).toEqual([]);
}, 30_000);

afterAll(async () => {
  await catalog?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ result: Awaited<ReturnType<Catalog['call']>>; sent: RecordEntry[] }> {
  const mark = server.records.length;
  const called = await catalog.call(name, args);
  // `requests`, the record of what the call sent, is test/observe/'s subject; these tests compare the rest.
  const { requests: _sent, ...result } = called as typeof called & { requests?: unknown };
  return { result: result as typeof called, sent: server.records.slice(mark) };
}

function header(entry: RecordEntry | undefined, name: string): string[] {
  const raw = entry?.rawHeaders ?? [];
  return raw.flatMap((value, index) =>
    index % 2 === 0 && value.toLowerCase() === name ? [`${value}: ${raw[index + 1]}`] : [],
  );
}

describe('a migrated 1.2.0 schema, served', () => {
  it('pre handler: builds the GraphQL body as 1.2.0 did (template text intact), the key goes in its header', async () => {
    const { result, sent } = await call('relay_searchThings', { first: 5 });
    expect(sent).toHaveLength(1);
    const query = 'query Things($first: Int) {\n  things(first: $first) {\n    id\n    name\n  }\n}';
    expect(sent[0]?.body).toBe(JSON.stringify({ query, variables: { first: 5, network: 'mainnet' } }));
    expect(header(sent[0], 'x-api-key')).toEqual([`X-Api-Key: ${KEY}`]);
    expect(header(sent[0], 'content-type')).toEqual(['Content-Type: application/json']);
    // post handler: the GraphQL envelope unwrapped.
    expect(result).toEqual({ ok: true, status: 200, content: { kind: 'json', value: [{ id: 1, name: 'a' }] } });
  });

  it('a GET body parameter reaches the pre handler only, which puts it in a header; nothing goes in the body', async () => {
    const { result, sent } = await call('relay_getThing', { id: 't-7', network: 'testnet' });
    expect(sent.map((entry) => `${entry.method} ${entry.url} [${entry.body}]`)).toEqual(['GET /things/t-7 []']);
    expect(header(sent[0], 'x-network')).toEqual(['x-network: testnet']);
    expect(result).toEqual({ ok: true, status: 200, content: { kind: 'json', value: { id: 't-7' } } });
  });

  it('a post handler that sets struct.status = false fails the call with its message', async () => {
    const { result } = await call('relay_getThing', { id: 't-9' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ kind: 'handler', code: 'SEC107' });
    expect(!result.ok && result.error.message).toContain('relay refused: gone');
  });

  it('regex(/^t-[0-9]+$/) became regex(^t-[0-9]+$): t-7 passes, a value with the slashes does not', async () => {
    const { result, sent } = await call('relay_getThing', { id: '/t-7/' });
    expect(sent).toEqual([]);
    expect(!result.ok && result.error.kind).toBe('arguments');
  });
});
